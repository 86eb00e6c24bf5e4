"""Correspondence leagues: members, seasons of paired rounds, standings and ratings."""
