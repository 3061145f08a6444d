"""Data sets the pipeline reads (nothing is downloaded at run time)."""
