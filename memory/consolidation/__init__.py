"""Sleep consolidation: merge, supersede, gist, generalise; learned salience and
confidence; every run journaled and reversible."""
