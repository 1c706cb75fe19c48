"""The notebook: the view-models the panels render, the run dashboard and the ladder panel."""
