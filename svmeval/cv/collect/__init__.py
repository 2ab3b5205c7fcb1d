"""What a run gives back: its results as plain data, and where their numbers come from."""
