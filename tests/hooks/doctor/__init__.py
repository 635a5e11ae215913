"""vault doctor."""
