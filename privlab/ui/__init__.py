"""What a notebook shows: widgets and panels, plots, ε figures, headline report."""
