"""The warm daemon: the server, its operations, the wire protocol, the
stdlib-only client the hooks use, and start/stop control from outside."""
