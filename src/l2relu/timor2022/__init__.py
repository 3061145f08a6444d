"""timor2022: Timor, Vardi, Shamir. Implicit regularization towards rank minimization in ReLU
networks. Section 3.1's experiment (fig1), the regions of Sections 6 and B (figs 2, 3) and
numerical checks of Theorems 1, 3, 4 and 5."""
