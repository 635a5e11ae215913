"""The way to the warm daemon from outside it, standard library only: the wire
protocol and socket folder, the client every hook, the CLI and the MCP server
use, and starting or stopping the daemon."""
