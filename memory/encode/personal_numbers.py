"""Personal numbers that are not keys but must never be stored: IBANs (their
country's length and the ISO 13616 mod-97 checksum, so an order number that
looks like one stays) and US social security numbers (the SSA's area, group and
serial rules; nine bare digits only after a cue such as "SSN"). Pure text in,
text out; memory/encode/redact.py applies them with the other rules.
"""

from __future__ import annotations

import re

from memory.encode.secret_patterns import MARK
from vault.lazy_pattern import LazyPattern

# ISO 13616 registry: country code -> IBAN length.
IBAN_LENGTHS = {
    code: int(length)
    for code, length in (
        item.split(":")
        for item in """AD:24 AE:23 AL:28 AT:20 AZ:28 BA:20 BE:16 BG:22 BH:22 BI:27 BR:29 BY:28
        CH:21 CR:22 CY:28 CZ:24 DE:22 DJ:27 DK:18 DO:28 EE:20 EG:29 ES:24 FI:18 FK:18 FO:18
        FR:27 GB:22 GE:22 GI:23 GL:18 GR:27 GT:28 HR:21 HU:28 IE:22 IL:23 IQ:23 IS:26 IT:27
        JO:30 KW:30 KZ:20 LB:28 LC:32 LI:21 LT:20 LU:20 LV:21 LY:25 MC:27 MD:24 ME:22 MK:19
        MN:20 MR:27 MT:31 MU:30 NI:28 NL:18 NO:15 OM:23 PK:24 PL:28 PS:29 PT:25 QA:29 RO:24
        RS:22 RU:33 SA:24 SC:31 SD:18 SE:24 SI:19 SK:24 SM:27 SO:23 ST:25 SV:28 TL:23 TN:24
        TR:26 UA:29 VA:22 VG:24 XK:20""".split()
    )
}
# A country code, two check digits, then the account part, grouped by four or not.
_IBAN = LazyPattern(r"(?<![A-Za-z0-9])[A-Z]{2}\d{2}(?: ?[A-Z0-9]){11,30}(?![a-z0-9])")
_SSN_DASHED = LazyPattern(r"(?<![\w\-/.])(\d{3})-(\d{2})-(\d{4})(?![\w\-/]|\.\d)")
_SSN_CUED = LazyPattern(
    r"(?i)(\b(?:ssn|ss#|social[ \-]security(?:[ \-](?:number|no\.?|#))?|itin)\b[^\d\n]{0,24}?)"
    r"(\d{3})[ \-.]?(\d{2})[ \-.]?(\d{4})(?![\w\-]|\.\d)"
)


def mask_ibans(text: str) -> str:
    """Every IBAN of a known country, with or without spaces, checksum valid."""
    return _IBAN.sub(_mask_iban, text) if _has_iban_shape(text) else text


def _has_iban_shape(text: str) -> bool:
    return any(c.isdigit() for c in text) and any(c.isupper() for c in text)


def _mask_iban(match: re.Match[str]) -> str:
    """The IBAN at the start of the match; what follows it is kept."""
    found = match.group(0)
    length = IBAN_LENGTHS.get(found[:2])
    if length is None:
        return found
    compact, end = "", 0
    while end < len(found) and len(compact) < length:
        compact += found[end] if found[end] != " " else ""
        end += 1
    if len(compact) < length or end < len(found) and found[end].isalnum():
        return found
    return MARK + found[end:] if iban_valid(compact) else found


def iban_valid(compact: str) -> bool:
    """ISO 7064 mod 97-10: the country and check digits moved to the end, letters
    as 10-35, the number mod 97 is 1."""
    moved = compact[4:] + compact[:4]
    return int("".join(str(int(c, 36)) for c in moved)) % 97 == 1


def mask_ssns(text: str) -> str:
    """AAA-GG-SSSS anywhere; nine digits otherwise written only after a cue."""
    if not any(c.isdigit() for c in text):
        return text
    text = _SSN_CUED.sub(lambda m: m.group(1) + MARK if _ssn_valid(*m.groups()[1:]) else m[0], text)
    return _SSN_DASHED.sub(lambda m: MARK if _ssn_valid(*m.groups()) else m.group(0), text)


def _ssn_valid(area: str, group: str, serial: str) -> bool:
    """The SSA never issues area 000, 666 or 900-999, group 00 or serial 0000."""
    return area not in ("000", "666") and area[0] != "9" and group != "00" and serial != "0000"
