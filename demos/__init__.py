"""Demo scenes."""
