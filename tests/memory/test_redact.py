"""Redaction: every format in the positive corpus fully masked, ordinary developer
text untouched, <private> honoured across sentences and lines, and the speed on
1 MB printed."""

from __future__ import annotations

import re
import time

import pytest

from memory.encode.redact import MARK, redact, remove_private
from memory.encode.secret_patterns import PROVIDER_TOKENS
from tests.memory.redact_corpus import NEGATIVE, POSITIVE, Case, Fake

SAMPLES = 5


@pytest.mark.parametrize("case", POSITIVE, ids=lambda case: case.name)
@pytest.mark.parametrize("sample", range(SAMPLES))
def test_every_secret_in_the_corpus_is_gone(case: Case, sample: int) -> None:
    text, secrets = case.make(Fake(f"{case.name}/{sample}"))
    redacted = redact(text)
    for secret in secrets:
        assert secret not in redacted, f"{case.name}: {secret!r} survived in {redacted!r}"


@pytest.mark.parametrize("case", POSITIVE, ids=lambda case: case.name)
def test_redacting_twice_changes_nothing(case: Case) -> None:
    once = redact(case.make(Fake(case.name))[0])
    assert redact(once) == once


def test_the_positive_corpus_covers_forty_formats() -> None:
    assert len({case.name for case in POSITIVE}) == len(POSITIVE) >= 40


@pytest.mark.parametrize("line", NEGATIVE)
def test_ordinary_developer_text_is_unchanged(line: str) -> None:
    assert redact(line) == line


@pytest.mark.parametrize(("name", "regex"), PROVIDER_TOKENS, ids=[n for n, _ in PROVIDER_TOKENS])
def test_no_provider_rule_fires_on_ordinary_text(name: str, regex: str) -> None:
    rule = re.compile(rf"(?<![A-Za-z0-9])(?:{regex})(?![A-Za-z0-9])")
    assert [line for line in NEGATIVE if rule.search(line)] == []


def test_redaction_is_idempotent_and_keeps_the_words_around_a_secret() -> None:
    text = "We decided DB_PASS=Zq0CVB8iY4qw for the replica, see ticket OPS-42."
    once = redact(text)
    assert once == f"We decided DB_PASS={MARK} for the replica, see ticket OPS-42."
    assert redact(once) == once


def test_a_quoted_value_keeps_its_quotes() -> None:
    assert redact('"client_secret": "s3cr3t-client-value"') == f'"client_secret": "{MARK}"'


def test_only_the_password_of_a_url_is_masked() -> None:
    url = "postgres://app:p@ss-w0rd@db.internal:5432/app"
    assert redact(url) == f"postgres://app:{MARK}@db.internal:5432/app"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("DB_PASS=$DB_PASSWORD", "DB_PASS=$DB_PASSWORD"),
        ("DB_PASS=$ecret1x", f"DB_PASS={MARK}"),
        ("--password $3cr3tPass", f"--password {MARK}"),
        ('password: "${DB_PASSWORD}"', 'password: "${DB_PASSWORD}"'),
        (
            "SORT_KEY=created_at and STRIPE_KEY=wq84BnaGx3",
            f"SORT_KEY=created_at and STRIPE_KEY={MARK}",
        ),
    ],
)
def test_variables_and_placeholders_are_kept_but_values_are_not(text: str, expected: str) -> None:
    assert redact(text) == expected


def test_a_number_that_fails_luhn_is_not_a_card() -> None:
    assert redact("Ticket 4111 1111 1111 1112 was closed.") == (
        "Ticket 4111 1111 1111 1112 was closed."
    )


def test_a_letters_only_bearer_token_with_two_inner_capitals_is_masked() -> None:
    """Two capitals inside the word are enough to read as a token; a phrase with
    ordinary capitals ("Basic Authentication") is kept."""
    text = "call the staging api with Bearer qhvTzmwkrpLxsdnb today"
    assert redact(text) == f"call the staging api with Bearer {MARK} today"
    assert redact("we use Basic Authentication here") == "we use Basic Authentication here"


def test_a_name_right_after_a_secret_word_is_kept() -> None:
    """Only a random-looking run after "api key" or "token" is a key; a CamelCase
    name there is the thing being talked about."""
    for text in ("the api key rotationScheduleMonthly runs",
                 "the password resetPasswordHandler sends mail"):  # fmt: skip
        assert redact(text) == text


def test_a_short_random_value_after_a_provider_s_name_is_masked() -> None:
    """Sixteen characters are too few to mask anywhere; after "datadog" they are a key."""
    text = "datadog app: Xk9Rt2bQm7LzPw4V for the dashboards"
    assert redact(text) == f"datadog app: {MARK} for the dashboards"
    assert redact("see Xk9Rt2bQm7LzPw4V") == "see Xk9Rt2bQm7LzPw4V"


def test_a_four_character_password_is_masked_but_three_are_too_few() -> None:
    assert redact("DB_PASSWORD=7hq2 in the env file") == f"DB_PASSWORD={MARK} in the env file"
    assert redact("the wifi password is q7x2") == f"the wifi password is {MARK}"
    assert redact("password: abc") == "password: abc"


def test_a_lowercase_run_with_one_digit_is_a_key_only_after_a_secret_word() -> None:
    """Long pieces (one digit splits 21 letters in two): alone it may be anything,
    after "token" it is the token."""
    run = "mtqzkpwxr8vnbhglsdfjc"
    assert redact(f"deploy token {run}") == f"deploy token {MARK}"
    assert redact(f"see {run}") == f"see {run}"


def test_a_thirteen_digit_card_number_is_masked() -> None:
    # Visa's 13-digit test number: 13 to 19 digits are card lengths
    assert redact("sandbox card 4222222222222 declined") == f"sandbox card {MARK} declined"


def test_a_uuid_is_masked_only_next_to_a_key_word() -> None:
    uuid = "1c8073cf-27b0-42a3-8365-3ebada615d84"
    assert redact(f"trace {uuid} timed out") == f"trace {uuid} timed out"
    assert redact(f"the license key {uuid} expires") == f"the license key {MARK} expires"


def test_a_long_api_name_without_digits_is_kept() -> None:
    """Letters only, short CamelCase pieces, few vowels: a name from a charting
    library, not a key (random keys of letters only are rare)."""
    text = "call gsnXYBarChartFillScaleF to fill the bars"
    assert redact(text) == text


def test_a_vowelless_abbreviated_name_with_long_pieces_is_kept() -> None:
    """No vowels, but CamelCase pieces of three to four letters: a Hungarian-notation
    name, not a key (random text splits into pieces of one or two)."""
    text = "set lpszXmlHttpRqstHndlrCfgMgrPtrLst first"
    assert redact(text) == text


def test_a_bare_key_whose_letters_are_two_fifths_vowels_is_masked() -> None:
    # the vowel bar is inclusive: 40 % vowels still reads as random
    text = "the build pulls with Oif7UuXUGfdWG5yP8Yib2eNU from the cache"
    assert redact(text) == f"the build pulls with {MARK} from the cache"


def test_a_run_after_a_secret_word_is_masked_where_free_text_keeps_it() -> None:
    """After "token" a run reads as a key at looser bars: three-letter CamelCase
    pieces, a third of them vowels. The same run alone reads as an identifier."""
    run = "KabTurMexDopWizLugNoxPel"
    assert redact(f"deploy token {run}") == f"deploy token {MARK}"
    assert redact(f"call {run} here") == f"call {run} here"


def test_a_key_word_opening_the_line_still_makes_a_uuid_a_key() -> None:
    """A pasted list of keys: the provider's name starts each line, the first
    line included."""
    uuid = "1c8073cf-27b0-42a3-8365-3ebada615d84"
    assert redact(f"Heroku {uuid}\nlicence {uuid}") == f"Heroku {MARK}\nlicence {MARK}"


def test_a_full_hex_digest_is_masked_but_a_short_sha_is_kept() -> None:
    digest = "e6c1134bc94982b1050382ad591339ccfc844e90"
    assert redact(f"fixed in e6c1134 ({digest})") == f"fixed in e6c1134 ({MARK})"


# <private> -------------------------------------------------------------------


def test_private_spans_cross_sentences_and_lines() -> None:
    text = "Use tabs. <private>One. Two!\nThree?</private> Ship Friday."
    assert redact(text) == "Use tabs.  Ship Friday."


def test_private_tags_are_case_and_space_insensitive_and_may_repeat() -> None:
    text = "a <PRIVATE>x</Private> b < private >y</ private > c"
    assert remove_private(text) == "a  b  c"


def test_an_unclosed_private_drops_the_rest() -> None:
    assert remove_private("keep this <private>not this\nnor this") == "keep this "


def test_nested_private_spans_close_at_the_outer_tag() -> None:
    text = "a <private>b <private>c</private> d</private> e"
    assert remove_private(text) == "a  e"


def test_a_closing_tag_never_opened_drops_the_text_before_it() -> None:
    # The tail of a span whose <private> was cut off upstream (a sentence split).
    tail = "We decided the alarm code is 4821.</private> Ship on Friday."
    assert redact(tail) == " Ship on Friday."
    assert remove_private("a </private> b <private>c</private> d") == " b  d"


# Speed -----------------------------------------------------------------------


def test_speed_on_one_megabyte_is_reported(capsys: pytest.CaptureFixture[str]) -> None:
    fake = Fake("speed")
    chunks = [case.make(fake)[0] for case in POSITIVE if "private" not in case.name]
    chunks += NEGATIVE
    text = "\n".join(chunks)
    text = (text + "\n") * (1_000_000 // len(text) + 1)
    started = time.perf_counter()
    redacted = redact(text)
    seconds = time.perf_counter() - started
    with capsys.disabled():
        print(f"\nredact: {len(text) / 1e6:.2f} MB in {seconds:.2f} s")
    assert MARK in redacted
