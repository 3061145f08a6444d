"""chen2024: Chen, Muñoz Ewald. Interpretable global minima of deep ReLU neural networks on
sequentially separable data. The truncation map and its cones (Section 3)."""
