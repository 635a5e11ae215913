"""The operation table the CLI, the MCP server and the daemon all call: one
function per operation over a MemoryService, its arguments checked, its reply
sent before the work that can wait (reinforcement, notes) is done."""
