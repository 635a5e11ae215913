"""Other coding agents on the same vault: `vault install --agent NAME` registers
`vault mcp` in each tool's own configuration and adds a rules block."""
