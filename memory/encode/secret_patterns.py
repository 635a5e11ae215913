"""The data behind redaction: named regexes for provider-issued tokens, the words
that mark a secret-bearing name, provider names, and prose words that follow
"password is" without being one, and the helper that turns word lists into fast
regexes. memory/encode/redact.py applies them.

Most token shapes are ported from gitleaks' config/gitleaks.toml
(github.com/gitleaks/gitleaks, MIT licence, (c) 2019 Zachary Rice), loosened
where a fixed length would miss a truncated or older token.
"""

from __future__ import annotations

import re
from typing import TypeAlias

from vault.lazy_pattern import LazyPattern

MARK = "[REDACTED]"  # what a secret becomes

# (name, regex). Each pattern is the whole token; the redactor adds word
# boundaries and masks the full match.
PROVIDER_TOKENS: tuple[tuple[str, str], ...] = (
    ("aws-access-key-id", r"(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}"),
    ("aws-bedrock-key", r"ABSK[A-Za-z0-9+/]{109,269}={0,2}"),
    ("github-token", r"gh[pousr]_[A-Za-z0-9]{30,}"),
    ("github-fine-grained-pat", r"github_pat_\w{22,}"),
    ("gitlab-token", r"gl(?:pat|dt|ft|rt|soat|ffct|imt|oas|agent|ptt|cbt)-[\w\-.]{20,}"),
    ("gitlab-runner-registration", r"GR1348941[\w\-]{20}"),
    ("anthropic-or-openai-key", r"sk-(?=[\w\-]*\d)[A-Za-z0-9_\-]{20,}"),
    ("stripe-key", r"(?:sk|rk|pk)_(?:live|test|prod)_[A-Za-z0-9]{10,99}"),
    ("stripe-webhook-secret", r"whsec_[A-Za-z0-9+/=]{24,}"),
    ("slack-token", r"xox[bpose]-\d{6,}-[A-Za-z0-9\-]{6,}|xox[ar]-(?:\d-)?[A-Za-z0-9]{8,48}"),
    ("slack-app-token", r"xapp-\d-[A-Z0-9]+-\d+-[a-z0-9]+"),
    ("slack-config-token", r"xoxe\.xox[bp]-\d-[A-Z0-9]{100,}"),
    ("slack-webhook", r"(?:https?://)?hooks\.slack\.com/(?:services|workflows|triggers)/[\w+/]+"),
    (
        "discord-webhook",
        r"https://(?:ptb\.|canary\.)?discord(?:app)?\.com/api/webhooks/\d+/[\w\-]+",
    ),
    ("teams-webhook", r"https://[\w\-]+\.webhook\.office\.com/webhookb2/\S+"),
    ("google-api-key", r"AIza[\w\-]{35}"),
    ("google-oauth-token", r"ya29\.[\w\-]{20,}"),
    ("google-client-secret", r"GOCSPX-[\w\-]{28}"),
    ("huggingface-token", r"hf_[A-Za-z0-9]{30,40}"),
    ("huggingface-org-token", r"api_org_[A-Za-z]{34}"),
    ("npm-token", r"npm_[A-Za-z0-9]{36}"),
    ("pypi-token", r"pypi-[\w\-]{50,}"),
    ("rubygems-token", r"rubygems_[a-f0-9]{48}"),
    ("clojars-token", r"CLOJARS_[A-Za-z0-9]{60}"),
    ("sendgrid-key", r"SG\.[\w\-]{16,}\.[\w\-]{16,}"),
    ("sendinblue-key", r"xkeysib-[a-f0-9]{64}-[A-Za-z0-9]{16}"),
    ("mailchimp-key", r"[0-9a-f]{32}-us\d{1,2}"),
    ("mailgun-key", r"(?:pub)?key-[0-9a-f]{32}"),
    ("twilio-key", r"(?:SK|AC)[0-9a-fA-F]{32}"),
    ("digitalocean-token", r"do[opr]_v1_[a-f0-9]{64}"),
    ("databricks-token", r"dapi[a-f0-9]{32}(?:-\d)?"),
    ("doppler-token", r"dp\.(?:pt|st|sa|ct|scim|audit)\.[A-Za-z0-9]{40,44}"),
    ("dynatrace-token", r"dt0c01\.[A-Za-z0-9]{24}\.[A-Za-z0-9]{64}"),
    ("easypost-key", r"EZ[AT]K[A-Za-z0-9]{54}"),
    ("flutterwave-key", r"FLW(?:SECK|PUBK)_TEST-[a-hA-H0-9]{12,32}(?:-X)?"),
    ("flyio-token", r"(?:fo1_[\w\-]{43}|fm[12][ar]?_[A-Za-z0-9+/]{100,}={0,3})"),
    ("frameio-token", r"fio-u-[\w\-=]{64}"),
    ("grafana-key", r"(?:eyJrIjoi[A-Za-z0-9]{70,400}={0,3}|glc_[A-Za-z0-9+/]{32,400}={0,3})"),
    ("grafana-service-account", r"glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}"),
    ("terraform-cloud-token", r"[A-Za-z0-9]{14}\.atlasv1\.[\w\-=]{60,70}"),
    ("hashicorp-vault-token", r"hv[sb]\.[\w\-]{90,300}"),
    ("heroku-key-v2", r"HRKU-AA[\w\-]{58}"),
    ("infracost-key", r"ico-[A-Za-z0-9]{32}"),
    ("linear-key", r"lin_api_[A-Za-z0-9]{40}"),
    ("new-relic-key", r"(?:NRAK-[A-Z0-9]{27}|NRII-[\w\-]{32}|NRJS-[a-f0-9]{19})"),
    ("notion-token", r"(?:ntn_\d{11}[A-Za-z0-9]{35}|secret_[A-Za-z0-9]{43})"),
    ("octopus-deploy-key", r"API-[A-Z0-9]{26}"),
    ("openshift-token", r"sha256~[\w\-]{43}"),
    ("perplexity-key", r"pplx-[A-Za-z0-9]{48}"),
    ("planetscale-token", r"pscale_(?:tkn|oauth|pw)_[\w=.\-]{32,64}"),
    ("postman-key", r"PMAK-[a-fA-F0-9]{24}-[a-fA-F0-9]{34}"),
    ("prefect-key", r"pnu_[A-Za-z0-9]{36}"),
    ("pulumi-token", r"pul-[a-f0-9]{40}"),
    ("readme-key", r"rdme_[a-z0-9]{70}"),
    ("scalingo-token", r"tk-us-[\w\-]{48}"),
    ("sentry-token", r"(?:sntryu_[a-f0-9]{64}|sntrys_eyJ[\w+/=]{20,})"),
    ("settlemint-token", r"sm_(?:aat|pat|sat)_[A-Za-z0-9]{16}"),
    ("shippo-token", r"shippo_(?:live|test)_[a-fA-F0-9]{40}"),
    ("shopify-token", r"shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}"),
    ("square-token", r"(?:EAAA|sq0atp-|sq0csp-)[\w\-]{22,60}"),
    ("artifactory-key", r"(?:AKCp[A-Za-z0-9]{69}|cmVmd[A-Za-z0-9]{59})"),
    ("age-secret-key", r"AGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}"),
    (
        "1password-secret-key",
        r"A3-[A-Z0-9]{6}-(?:[A-Z0-9]{11}|[A-Z0-9]{6}-[A-Z0-9]{5})(?:-[A-Z0-9]{5}){3}",
    ),
    ("1password-service-token", r"ops_eyJ[A-Za-z0-9+/]{250,}={0,3}"),
    ("adobe-client-secret", r"p8e-[A-Za-z0-9]{32}"),
    ("alibaba-key-id", r"LTAI[A-Za-z0-9]{20}"),
    ("atlassian-token", r"ATATT3[\w\-=]{50,}"),
    ("clickhouse-secret", r"4b1d[A-Za-z0-9]{38}"),
    ("cloudflare-origin-ca-key", r"v1\.0-[a-f0-9]{24}-[a-f0-9]{146}"),
    ("duffel-token", r"duffel_(?:test|live)_[\w\-=]{43}"),
    ("facebook-page-token", r"EAA[MC][A-Za-z0-9]{100,}"),
    ("maxmind-key", r"[A-Za-z0-9]{6}_[A-Za-z0-9]{29}_mmk"),
    ("azure-ad-client-secret", r"[\w~.]{3}\dQ~[\w~.\-]{31,34}"),
    ("telegram-bot-token", r"\d{8,10}:AA[\w\-]{33}"),
    ("discord-bot-token", r"[MN][A-Za-z\d]{23,25}\.[\w\-]{6}\.[\w\-]{27,38}"),
    ("docker-hub-pat", r"dckr_pat_[\w\-]{27}"),
    ("supabase-token", r"sbp_[a-f0-9]{40}"),
    ("sonarqube-token", r"sq[pua]_[a-f0-9]{40}"),
    ("sourcegraph-token", r"sgp_(?:[a-fA-F0-9]{16}_|local_)?[a-fA-F0-9]{40}"),
    ("facebook-app-token", r"\d{15,16}(?:\||%7[Cc])[\w\-]{27,40}"),
    ("jwt", r"eyJ[\w\-]{8,}\.eyJ[\w\-]{8,}\.[\w\-]*"),
)


_Trie: TypeAlias = dict[str, "_Trie"]


def word_trie(words: str) -> str:
    """A regex for any of the space-separated `words`, as a trie (one branch per
    letter, which keeps a 100-word alternation fast); `+` inside a word matches
    `_`, `-`, `.`, a space or nothing (`api+key` matches API_KEY and "API key")."""
    trie: _Trie = {}
    for word in words.split():
        node = trie
        for char in word:
            node = node.setdefault(char, {})
        node[""] = {}
    return _trie_regex(trie)


def _trie_regex(node: _Trie) -> str:
    branches = [
        (r"[_\-. ]?" if char == "+" else re.escape(char)) + _trie_regex(child)
        for char, child in sorted(node.items())
        if char
    ]
    if not branches:
        return ""
    body = branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"
    return f"(?:{body})?" if "" in node else body


# Words that, ending a name (DB_PASS, clientSecret, "API key"), mark its value
# as secret. Short ones must start a name component (so "bypass" is not one).
_KEY_QUALIFIERS = """api access secret private master signing encryption license licence
    client auth app account service deploy ssh admin webhook consumer session storage
    shared subscription write root gpg pgp rsa hmac jwt priv"""
LONG_SECRET_WORDS = word_trie(
    "password passwd passphrase passcode secret token credential credentials apikey "
    "connection+string conn+str dsn sas+token shared+access+signature sonar+login "
    + " ".join(f"{qualifier}+key" for qualifier in _KEY_QUALIFIERS.split())
)
SHORT_SECRET_WORDS = word_trie("pass pwd pw creds")
# UPPER_CASE_NAMES ending in _KEY are secrets unless the prefix says otherwise.
BENIGN_KEY_NAME = LazyPattern(
    r"(?i)(?:^|_)(?:sort|primary|partition|cache|foreign|routing|hash|lookup|map|row|"
    r"column|index|unique|composite|natural|idempotency|object|bucket|public|pub|s3|"
    r"redis|range|cluster|shard|group|message|event|dedup|storage_class)_KEY$"
)
# A provider's name near a value marks it, as in gitleaks' keyword rules.
PROVIDERS = word_trie(
    """adafruit adobe airtable algolia alibaba amplitude anthropic artifactory asana
    atlassian auth0 aws azure beamer bitbucket bittrex braintree bugsnag circleci
    clickhouse cloudflare codecov cohere coinbase confluence confluent contentful
    datadog digitalocean discord docker doppler droneci dropbox dynatrace etsy
    facebook fastly finicity finnhub firebase flickr freshbooks gcp github gitlab
    gitter gocardless google grafana heroku honeycomb hubspot intercom jfrog jira
    kraken kucoin launchdarkly linear linkedin looker mailchimp mailgun mailjet
    mapbox mattermost meraki messagebird mixpanel netlify new+relic okta
    openai pagerduty paypal plaid postmark pusher rapidapi rollbar segment sendbird
    sendgrid sentry shopify slack snyk sonar sparkpost square squarespace stripe
    sumologic supabase telegram travis twilio twitch twitter typeform vercel yandex
    zendesk"""
)
# Single words that follow "the password is" / "token:" in prose, not secrets.
PROSE_WORDS = frozenset(
    """a an the this that these those it its our your my their his her not no yes now
    still also just only too very so then there here what which who where when how why
    in on at to for from by with of as into onto over under about after before via per
    and or but if else than set same different new old any all some none null nil
    empty unset missing required optional wrong invalid valid correct incorrect right
    fine ok okay good bad weak strong long short secure insecure safe unsafe public
    private hidden visible available unavailable mandatory known unknown shared static
    random unique global local temporary permanent case sensitive default needed
    necessary important true false yet again always never sometimes usually probably
    be being been is are was were will would should could can may might must do does
    done did have has had get gets got put kept sent read lost one two three string
    str bytes int integer number bool boolean object undefined any secretstr redacted
    see reset broken down up off gone shown given written taken stolen chosen
    forgotten left found made built bound
    """.split()
)
# Unquoted values after `name =`/`name:` that are code, a type or a placeholder:
# $VAR ${X} %(x)s !vault &anchor *alias <yours> (a, b), settings.SECRET_KEY, os.getenv(...).
# ${X}, $(cmd), $pass, $HF_TOKEN, $1
VARIABLE = r"\$(?:\{|\(|[A-Za-z_]+$|[A-Z_][A-Z0-9_]*$|\d$)"
CODE_VALUE = LazyPattern(
    VARIABLE + r"|%\(|\{\{|<|[(\[{]|\.\.\.|[!&*][A-Za-z_][A-Za-z_\-]*$"
    r"|[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+$|[A-Za-z_][\w.]*[(\[]"
)
# Values that stand in for a secret: ${VAR}, {{ secrets.X }}, %(pw)s, %s, {0},
# <your token>, xxxx, ****, your-api-key, key-goes-here.
PLACEHOLDER_VALUE = LazyPattern(
    r"(?i)^(?:\$\{.*\}|\{\{.*\}\}|%\(\w*\)[sdr]|%[sdr]|\{\w*\}|<.*|[x*•.#_\-]{3,}"
    r"|your[_\-].*|.*[_\-]here)$"
)
