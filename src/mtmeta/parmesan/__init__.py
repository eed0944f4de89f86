"""Targeted paraphrasing of references (seed 002, "Parmesan"): the pure paraphraser
(:mod:`.paraphraser`), the study around it (:mod:`.study`), output alignment with eflomal
(:mod:`.alignment`) and distributional ranking of paraphrase pairs (:mod:`.distributional`, its
compiled dot products in :mod:`.distributional_kernel`)."""
