"""Secret redaction, applied to any text before it is stored (memory files, index
rows, daily logs) and before an id or slug is made from it. A secret becomes
`[REDACTED]`; <private>...</private> spans are dropped. Pure (text in, text out,
idempotent); where in doubt it masks: a lost checksum costs less than a leaked key.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Mapping
from typing import TypeVar, cast

from memory.encode.personal_numbers import mask_ibans, mask_ssns
from memory.encode.secret_patterns import (
    BENIGN_KEY_NAME,
    CODE_VALUE,
    LONG_SECRET_WORDS,
    MARK,
    PLACEHOLDER_VALUE,
    PROSE_WORDS,
    PROVIDER_TOKENS,
    PROVIDERS,
    SHORT_SECRET_WORDS,
    VARIABLE,
)
from vault.lazy_pattern import LazyPattern

T = TypeVar("T")

_PRIVATE_TAG = LazyPattern(r"<\s*(/?)\s*private\s*>", re.IGNORECASE)
_KEY_BLOCK = LazyPattern(
    r"-----BEGIN[ A-Z0-9_-]{0,60}(?:PRIVATE KEY(?: BLOCK)?|CERTIFICATE)-----"
    r"(?=(?:\s|\\[nr])*(?:[A-Za-z0-9+/=]{40}|Proc-Type:)).*?"
    r"(?:-----END[ A-Z0-9_-]{0,60}-----|\Z)"
    r"|PuTTY-User-Key-File-\d+:.*?(?:Private-MAC:\s*\S+|\Z)",
    re.DOTALL,
)
_TOKEN = LazyPattern(
    r"(?<![A-Za-z0-9])(?:" + "|".join(regex for _, regex in PROVIDER_TOKENS) + r")(?![A-Za-z0-9])"
)
# For these, the secret is the last group that matched; the rest is kept.
_URL_PASSWORD = LazyPattern(r"(?i)\b([a-z][a-z0-9+.\-]*://[^\s:/@]*:)([^\s/?#]+)(?=@)")
_QUERY_SECRET = LazyPattern(
    r"(?i)([?&;][\w\-.\[\]]*?(?:token|key|secret|password|passwd|pwd|sig|signature|auth|"
    r"credential|code|session|sid)=)([^&#\s'\"<>]+)"
)
_AUTH_HEADER = LazyPattern(
    r"(?i)(\b(?:proxy-)?authorization[\"']?\s*[:=]\s*[\"']?"
    r"(?:(?:bearer|basic|token|digest|bot|apikey|sso-key|key)\s+)?)([^\s\"',;]+)"
)
# curl -u user:pass, --user "{id}":"{pass}", and -u "token:" (a token as the user).
_USER_PASSWORD_FLAG = LazyPattern(
    r"((?<!\S)(?:-u|--user)(?:\s+|=)[\"']?\{?[^\s:\"'{}]*\}?[\"']?:[\"']?\{?)([^\s\"'{}]+)"
    r"|((?<!\S)(?:-u|--user)(?:\s+|=)[\"']?)([^\s:\"']{8,})(?=:[\"']?(?:\s|$))"
)
_PASSWORD_FLAG = LazyPattern(
    r"(\b(?:mysql\w*|sshpass|docker\s+login)\b[^\n]*?\s-p\s*[\"']?)([^\s\"']+)"
    r"|((?i:\bmachine\s+\S+\s+login\s+\S+\s+password\s+))(\S+)"
    rf"|((?<!\S)--?[\w\-]*?(?i:{LONG_SECRET_WORDS}|{SHORT_SECRET_WORDS})\s+)(?!-)([^\s\"']+)"
)
_MARKUP = LazyPattern(
    r"(?i)(<([\w:.\-]*(?:password|passwd|secret|token|apikey|api[_\-]key|credential))>)"
    r"([^<]+)(?=</\2>)"
    r"|(<add\s+key=\"[^\"]*(?:password|secret|token|api[_\-]?key)[^\"]*\"\s+value=\")([^\"]+)"
)
_PIN = LazyPattern(r"(?i)(\bpin(?:\s+(?:code|number))?\s*(?:is|was|:|=)\s*)(\d{4,8})\b")
_SCHEME_CREDENTIAL = LazyPattern(r"(?i)(\b(?:bearer|basic)\s+)([A-Za-z0-9._~+/\-]{12,}=*)")
# A secret-ish name, then `=`/`:` (assignment) or "is"/"to" (prose), then the value.
_NAME_BODY = (
    rf"(?:[\w.\-]*?(?:{LONG_SECRET_WORDS})|(?:[\w.\-]*?[_\-.])?(?:{SHORT_SECRET_WORDS})"
    r"|(?-i:[A-Z][A-Z0-9_]*_KEY|BUNDLE_[A-Z0-9_]+__[A-Z0-9_]+))"
)
_NAME = (
    rf"(?<![\w.\-])(?P<name>{_NAME_BODY}(?:[_\-.](?:base|value|b64|raw|plain|str|string|hex))?)"
    r"(?![A-Za-z0-9])[\"'\]`]{0,2}"
)
_NAME_ONLY = LazyPattern(rf"(?i){_NAME_BODY}")
_VALUE = r"\"(?:[^\"\\\n]|\\.)*\"|'(?:[^'\\\n]|\\.)*'|`[^`\n]+`|[^\s'\"`,;<>]+"
_QUALIFIER = (
    r"(?:for|of|on|in|to|the|a|an|my|our|your|this|that|staging|prod|production|dev|test|local|"
    r"admin|root|db|database|server|account|user|service|app|new|old|current|default|shared|"
    r"(?-i:[A-Z][\w\-]*)|`[^`\s]+`)"
)
# One pattern for the three shapes, so the name is looked for once: `name = value`,
# "the name for X is value", and a random-looking "name value".
_NAMED_VALUE = LazyPattern(
    rf"(?i){_NAME}(?:\s*(?P<sign>(?<![=!<>])(?:=>|:=|\?=|=|:)(?![=:]))[ \t]*(?P<assigned>{_VALUE})"
    rf"|(?:\s+{_QUALIFIER}){{0,4}}?\s+(?P<verb>(?:is|was)\s+(?:now|still|set\s+to|changed\s+to)"
    rf"|is|was|are|were|to|as)\s+(?P<said>{_VALUE})"
    r"|[ \t]+(?P<adjacent>[A-Za-z0-9+/=_\-~]{16,}))"
)
_PROVIDER_VALUE = LazyPattern(
    rf"(?i)\b(?:{PROVIDERS})\b[\w.\- ]{{0,24}}?[\"'\]`]{{0,2}}\s*(?:=>|:=|=|:|\bis\b|\bwas\b)\s*"
    r"[\"'`]?(?P<value>[A-Za-z0-9_\-+/=~]{12,})"
)
_CARD = LazyPattern(r"(?<![\w.\-/:])\d(?:[ \-]?\d){12,18}(?![\w\-/:]|\.\d)")
# Visa, Mastercard (51-55, 2221-2720), Amex, Diners, JCB, Discover, UnionPay.
_CARD_ISSUER = LazyPattern(
    r"4|5[1-5]|2(?:22[1-9]|2[3-9]\d|[3-6]\d\d|7[01]\d|720)|3[47]|3(?:0[0-5]|[68])|35"
    r"|6(?:011|5|4[4-9]|2)"
)
_UUID = LazyPattern(
    r"(?<![0-9A-Fa-f\-])[0-9A-Fa-f]{8}(?:-[0-9A-Fa-f]{4}){3}-[0-9A-Fa-f]{12}(?![0-9A-Fa-f\-])"
)
# Words before a UUID that make it a key: generic ones, and the providers whose
# keys are UUIDs (gitleaks: heroku, hubspot, kucoin, messagebird, plaid, ...).
_KEY_WORD_NEARBY = LazyPattern(
    r"(?i)key|token|secret|passw|pwd|credential|auth(?!or)|licen[cs]e|heroku|hubspot|kucoin|"
    r"message[_\- ]?bird|plaid|sendbird|snyk|squarespace"
)
_HEX = LazyPattern(r"(?<![0-9A-Fa-f])(?=\d*[A-Fa-f])[0-9A-Fa-f]{32,}(?![0-9A-Fa-f])")
_RUN = LazyPattern(r"(?<![A-Za-z0-9+/_\-])[A-Za-z0-9+/_\-]{20,}={0,3}(?![A-Za-z0-9+/_\-=])")
_CAMEL_PIECE = LazyPattern(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+")
_PATH_WORD = LazyPattern(r"[a-z]{2,}|[A-Z][a-z]+")
_TRAILING_PUNCTUATION = ".,;:!?)]}"
_VARIABLE = LazyPattern(VARIABLE)
_BARE_WORD = LazyPattern(r"[A-Za-z_]+")
_RECEIVER = LazyPattern(r"(?:self|this|cls)\.|@")
_PROSE_SUFFIX = LazyPattern(
    r"[a-z]+(?:ed|ing|ly|able|ible|ive|ous|ful|less|tion|sion|ment|ness|ity)"
)
# Lines hinting at a named secret get the slower, name-anchored rules.
_SECRET_HINT = LazyPattern(
    r"pass|pw|secret|token|credential|creds|key|dsn|conn|sas|signature|sonar|bundle_"
)
_PROVIDER_HINT = LazyPattern(PROVIDERS)


def redact(text: str) -> str:
    """`text` with <private> spans removed and every recognised secret masked."""
    text = remove_private(text)
    text = _KEY_BLOCK.sub(MARK, text)
    text = _TOKEN.sub(MARK, text)
    for pattern in (_URL_PASSWORD, _QUERY_SECRET):
        text = pattern.sub(_mask_flag_value, text)
    text = "\n".join(_redact_line(line) for line in text.split("\n"))
    text = _CARD.sub(_mask_card, text)
    text = mask_ssns(mask_ibans(text))
    text = _UUID.sub(_mask_keyed_uuid, text)
    text = _HEX.sub(MARK, text)
    return _RUN.sub(_mask_random_run, text)


def redact_fields(value: T) -> T:
    """`value` with every string in it redacted: a memory's frontmatter (keys of
    nested mappings too, lists of tags or links), numbers and times as they are."""
    if isinstance(value, str):
        return cast(T, redact(value))
    if isinstance(value, Mapping):
        return cast(T, {redact_fields(k): redact_fields(v) for k, v in value.items()})
    if isinstance(value, (list, tuple)):
        return cast(T, type(value)(redact_fields(item) for item in value))
    return value


def has_private(text: str) -> bool:
    """Whether `text` holds a <private> or </private> tag (a turn that opts out)."""
    return _PRIVATE_TAG.search(text) is not None


def remove_private(text: str) -> str:
    """`text` without its <private> spans, nested or across lines. An unclosed
    <private> drops the rest of the text; a </private> never opened drops all
    before it (the text is the tail of a span cut off upstream)."""
    kept: list[str] = []
    depth, position = 0, 0
    for tag in _PRIVATE_TAG.finditer(text):
        closing = bool(tag.group(1))
        if depth == 0:
            kept = [] if closing else [*kept, text[position : tag.start()]]
        depth = max(depth - 1, 0) if closing else depth + 1
        position = tag.end()
    if depth == 0:
        kept.append(text[position:])
    return "".join(kept)


def _redact_line(line: str) -> str:
    """The rules that need a name, a flag or a header on the same line; each runs
    only on lines holding a word it needs, which keeps 1 MB under a second."""
    lowered = line.lower()
    if "authorization" in lowered:
        line = _AUTH_HEADER.sub(_mask_flag_value, line)
    if "bearer" in lowered or "basic" in lowered:
        line = _SCHEME_CREDENTIAL.sub(_mask_encoded, line)
    if "-u" in lowered:
        line = _USER_PASSWORD_FLAG.sub(_mask_flag_value, line)
    if "-p" in lowered or "--" in lowered or "machine" in lowered:
        line = _PASSWORD_FLAG.sub(_mask_flag_value, line)
    if "pin" in lowered:
        line = _PIN.sub(_mask_last_group, line)
    if _SECRET_HINT.search(lowered):
        line = _MARKUP.sub(_mask_last_group, line)
        line = _NAMED_VALUE.sub(_mask_named_value, line)
    if _PROVIDER_HINT.search(lowered):
        line = _PROVIDER_VALUE.sub(_mask_value_if_random, line)
    return line


def _mask_last_group(match: re.Match[str]) -> str:
    secret = max(index for index in range(1, len(match.groups()) + 1) if match.group(index))
    if match.group(secret).startswith(MARK):
        return match.group(0)
    start, end = match.start(secret) - match.start(), match.end(secret) - match.start()
    return match.group(0)[:start] + MARK + match.group(0)[end:]


def _mask_flag_value(match: re.Match[str]) -> str:
    """The value of a flag, URL or query parameter, unless `$VAR` or a placeholder."""
    value = match.group(match.lastindex or 0)
    if _VARIABLE.match(value) or PLACEHOLDER_VALUE.search(value):
        return match.group(0)
    return _mask_last_group(match)


def _mask_encoded(match: re.Match[str]) -> str:
    """`Bearer <token>` / `Basic <base64>`, but not "Basic Authentication"."""
    value = match.group(2)
    interior_capitals = sum(c.isupper() for c in value[1:])
    if any(c.isdigit() or c in "+/=" for c in value) or interior_capitals >= 2:
        return match.group(1) + MARK
    return match.group(0)


def _mask_named_value(match: re.Match[str]) -> str:
    if match.group("adjacent"):
        return _mask_value_if_random(match, "adjacent")
    group = "said" if match.group("said") is not None else "assigned"
    raw, verb = match.group(group), (match.group("verb") or match.group("sign")).lower()
    if MARK in raw:
        return match.group(0)
    quoted = len(raw) >= 2 and raw[0] in "\"'`" and raw[-1] == raw[0]
    value = raw[1:-1] if quoted else raw.rstrip(_TRAILING_PUNCTUATION)
    if not _is_secret_value(value, quoted, match.group("name"), verb):
        return match.group(0)
    if not quoted and _BARE_WORD.fullmatch(value) and _in_code(match):
        return match.group(0)
    masked = f"{raw[0]}{MARK}{raw[-1]}" if quoted else MARK + raw[len(value) :]
    return match.group(0)[: match.start(group) - match.start()] + masked


def _in_code(match: re.Match[str]) -> bool:
    """`self.token = nextchar`, `Token = Ignore + Plain`, `a = passwd = b`: the
    value is a variable, not a literal."""
    following = match.string[match.end() :].lstrip(" \t")[:1]
    return bool(_RECEIVER.match(match.group("name"))) or following in ("+", "*", "/", "=", "(")


def _is_secret_value(value: str, quoted: bool, name: str, verb: str) -> bool:
    """Whether the value after a secret-ish name is a secret, not code or prose."""
    if not value.strip() or PLACEHOLDER_VALUE.search(value) or (len(value) < 4 and not quoted):
        return False
    if name.isupper() and name.endswith("_KEY") and BENIGN_KEY_NAME.search(name):
        return False
    if quoted:
        return True
    if value.lower() in PROSE_WORDS or CODE_VALUE.match(value):
        return False
    if not any(c.isdigit() for c in value) and _NAME_ONLY.fullmatch(value):
        return False  # password=password, token=access_token: a variable, not a value
    if verb in ("to", "as"):
        return _shaped_like_secret(value)
    return verb in ("=", ":=", "=>", "?=") or not _PROSE_SUFFIX.fullmatch(value)


def _shaped_like_secret(value: str) -> bool:
    symbols = any(not c.isalnum() and c not in "-_" for c in value)
    digits = any(c.isdigit() for c in value)
    return symbols or digits or sum(c.isupper() for c in value[1:]) >= 2


def _mask_value_if_random(match: re.Match[str], group: str = "value") -> str:
    """A random-looking value right after a secret word or a provider's name."""
    value = match.group(group)
    if value.startswith(MARK) or not _random_looking(value, min_length=12, named=True):
        return match.group(0)
    return match.group(0)[: match.start(group) - match.start()] + MARK


def _mask_card(match: re.Match[str]) -> str:
    digits = re.sub(r"\D", "", match.group(0))
    separators = set(re.findall(r"\D", match.group(0)))
    if len(separators) > 1 or not 13 <= len(digits) <= 19 or not _CARD_ISSUER.match(digits):
        return match.group(0)
    return MARK if _luhn_valid(digits) else match.group(0)


def _luhn_valid(digits: str) -> bool:
    total = 0
    for position, char in enumerate(reversed(digits)):
        value = int(char) * (2 if position % 2 else 1)
        total += value - 9 if value > 9 else value
    return total % 10 == 0


def _mask_keyed_uuid(match: re.Match[str]) -> str:
    """A UUID is a key (Heroku's are) only with a key-ish word shortly before it."""
    line_start = match.string.rfind("\n", 0, match.start()) + 1
    window = match.string[max(line_start, match.start() - 48) : match.start()]
    return MARK if _KEY_WORD_NEARBY.search(window) else match.group(0)


def _mask_random_run(match: re.Match[str]) -> str:
    """A long random run; in a path (a run with a plain word between slashes)
    only the random segments go."""
    run = match.group(0)
    if _UUID.fullmatch(run):
        return run
    segments = run.split("/")
    if len(segments) > 1 and any(_PATH_WORD.fullmatch(segment) for segment in segments):
        return "/".join(MARK if _random_looking(s) else s for s in segments)
    return MARK if _random_looking(run) else run


def _random_looking(token: str, min_length: int = 20, named: bool = False) -> bool:
    """High-entropy, mixed-class text: a key or token, not a word, path, name or hash.
    An identifier (sizeEndCentDir64Locator, Wav2Vec2Model) splits into long,
    vowel-rich pieces; random text into pieces of one or two characters, few vowels.
    Thresholds measured on 8,700 long runs from site-packages and 10,000 random ones;
    `named` (the value follows a secret word or a provider) loosens them."""
    token = token.rstrip("=")
    alnum = "".join(c for c in token if c.isalnum())
    letters = [c for c in alnum if c.isalpha()]
    longest_part = max(len(part) for part in re.split(r"[\-_.]", token))
    if len(token) < min_length or longest_part < 16 or not letters:
        return False
    has_digits = len(letters) < len(alnum)
    if not has_digits and len(alnum) < (24 if named else 30):
        return False  # a long word or CamelCase name; random letters-only keys are rare
    if set(alnum) <= set("0123456789abcdef") and len(alnum) < 32:
        return False  # a short hex hash or id; hex from 32 characters is masked anyway
    piece = len(alnum) / len(_CAMEL_PIECE.findall(alnum))
    vowels = sum(c in "aeiouAEIOU" for c in letters) / len(letters)
    if any(c.isupper() for c in letters) and any(c.islower() for c in letters):
        piece_limit = 3.5 if named else 2.6
        shaped = (piece <= piece_limit and vowels <= 0.4) or (piece <= 3.3 and vowels <= 0.22)
    else:
        shaped = has_digits and piece <= (8 if named else 6) and vowels <= (0.4 if named else 0.35)
    return shaped and _shannon_bits(token) >= 3.0


def _shannon_bits(text: str) -> float:
    counts = Counter(text)
    return -sum(n / len(text) * math.log2(n / len(text)) for n in counts.values())
