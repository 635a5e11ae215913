"""Secret redaction and <private> removal, applied before anything is written.

Patterns cover common providers' keys, bearer and basic credentials, private
key blocks, passwords in URLs and in assignments, and .env-style lines. A
redacted secret becomes `[REDACTED]`; text inside <private>...</private> is
dropped entirely.
"""

from __future__ import annotations

import re

MARK = "[REDACTED]"
_PRIVATE = re.compile(r"<private>.*?(?:</private>|\Z)", re.IGNORECASE | re.DOTALL)
_PEM = re.compile(
    r"-----BEGIN [A-Z0-9 ]*(?:PRIVATE KEY|CERTIFICATE|PGP PRIVATE KEY BLOCK)-----"
    r".*?(?:-----END [A-Z0-9 ]*-----|\Z)",
    re.DOTALL,
)
_TOKENS = [
    r"\bAKIA[0-9A-Z]{16}\b",  # AWS access key id
    r"\bASIA[0-9A-Z]{16}\b",  # AWS temporary key id
    r"\bgh[pousr]_[A-Za-z0-9]{30,}\b",  # GitHub tokens
    r"\bgithub_pat_[A-Za-z0-9_]{22,}\b",
    r"\bglpat-[A-Za-z0-9_\-]{20,}\b",  # GitLab
    r"\bsk-(?:ant-|proj-|live-)?[A-Za-z0-9_\-]{20,}\b",  # Anthropic, OpenAI
    r"\b(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{16,}\b",  # Stripe
    r"\bxox[abposr]-[A-Za-z0-9\-]{10,}\b",  # Slack
    r"\bhttps://hooks\.slack\.com/services/[A-Za-z0-9/]+",
    r"\bAIza[0-9A-Za-z_\-]{35}\b",  # Google API key
    r"\bya29\.[0-9A-Za-z_\-]{20,}\b",  # Google OAuth
    r"\bhf_[A-Za-z0-9]{30,}\b",  # Hugging Face
    r"\bnpm_[A-Za-z0-9]{36}\b",  # npm
    r"\bpypi-[A-Za-z0-9_\-]{50,}\b",  # PyPI
    r"\bSG\.[A-Za-z0-9_\-]{16,}\.[A-Za-z0-9_\-]{16,}\b",  # SendGrid
    r"\bSK[0-9a-fA-F]{32}\b",  # Twilio
    r"\bdop_v1_[a-f0-9]{64}\b",  # DigitalOcean
    r"\beyJ[A-Za-z0-9_\-]{8,}\.eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}",  # JWT
]
_TOKEN = re.compile("|".join(f"(?:{p})" for p in _TOKENS))
_AUTH_HEADER = re.compile(r"(?i)\b(bearer|basic|token)(\s+)[A-Za-z0-9._~+/=\-]{12,}")
_URL_PASSWORD = re.compile(r"(?i)\b([a-z][a-z0-9+.\-]*://[^\s:/@]+:)([^\s@/]+)(@)")
_SECRET_NAME = (
    r"[A-Za-z0-9_.\-]*(?:password|passwd|passphrase|pwd|secret|token|api[_\-]?key|apikey|"
    r"access[_\-]?key|private[_\-]?key|client[_\-]?secret|credentials?|auth[_\-]?key|"
    r"connection[_\-]?string|accountkey)[A-Za-z0-9_.\-]*"
)
_ASSIGNMENT = re.compile(
    rf"(?i)(\b{_SECRET_NAME}[\"']?\s*(?:=|:|:=|=>)\s*)(\"[^\"\n]*\"|'[^'\n]*'|[^\s,;]+)"
)
_SAID = re.compile(r"(?i)\b(password|passphrase|pin)(\s+(?:is|was)\s+)(\S+)")


def remove_private(text: str) -> str:
    return _PRIVATE.sub("", text)


def redact(text: str) -> str:
    """`text` with <private> spans removed and every recognised secret masked."""
    text = remove_private(text)
    text = _PEM.sub(MARK, text)
    text = _TOKEN.sub(MARK, text)
    text = _URL_PASSWORD.sub(lambda m: f"{m.group(1)}{MARK}{m.group(3)}", text)
    text = _AUTH_HEADER.sub(lambda m: f"{m.group(1)}{m.group(2)}{MARK}", text)
    text = _ASSIGNMENT.sub(_mask_assignment, text)
    return _SAID.sub(lambda m: f"{m.group(1)}{m.group(2)}{MARK}", text)


def _mask_assignment(match: re.Match[str]) -> str:
    value = match.group(2)
    if value.strip("\"'") in ("", MARK) or value.startswith("$"):
        return match.group(0)
    return f"{match.group(1)}{MARK}"
