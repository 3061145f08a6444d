"""jacot2022: Jacot, Golikov, Hongler, Gabriel. Feature learning in L2-regularized DNNs:
attraction/repulsion and sparsity. Fig. 1 (forces), Fig. 2 (width plateau) and numerical checks
of Props. 1, 13, 14, 15, 19 and Remark 23."""
