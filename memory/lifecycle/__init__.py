"""The lifecycle: decay, reinforcement, forgetting and the usage factors that
make a memory last (appearances, periodic-note links, evergreen and salience).
"""
