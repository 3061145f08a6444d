"""What every figure's notebook shares, so that each holds its own plot and reading alone: the
house style, saving (the same figure gives the same bytes) and the closing cell."""

import seaborn as sns

SAVE = {"bbox_inches": "tight"}
PDF_META = {"CreationDate": None}  # no timestamp: the same figure gives the same bytes


def set_style() -> None:
    """The figures' look: seaborn's ticks, sized for a paper."""
    sns.set_theme(style="ticks", context="paper", font_scale=1.2)


def save_figure(fig, pdf, png, dpi: int) -> None:
    """`fig` as the target's PDF and PNG."""
    fig.savefig(pdf, metadata=PDF_META, **SAVE)
    fig.savefig(png, dpi=dpi, **SAVE)


def show_reading(png, ledger_rows, registry) -> None:
    """The notebook's closing cell: the figure as saved; then the paper's words, the target's
    ledger rows and their reading, all written from the ledger and the claims registry."""
    from IPython.display import Image, Markdown, display

    from l2relu.ledger.verdict import notebook_analysis

    display(Image(png))
    display(Markdown(notebook_analysis(ledger_rows, registry)))
