"""The story (seeds/000) as Claude Code sees it: the words, the days, and the text
our context starts with in a request body."""

STORY = (
    "let's always use pytest fixtures instead of setUp/tearDown for this codebase - tried "
    "unittest style on a past project and sharing fixtures across test files was a pain."
)
QUESTION = "should I use TestCase.setUp() here or something else?"
DAY1, DAY19, DAY20 = "2026-01-01T09:00:00Z", "2026-01-20T09:00:00Z", "2026-01-21T09:00:00Z"
RECALLED = "UserPromptSubmit hook additional context: memory-vault: notes from the user's own"
HEDGED = "Might be related (weak match)"
