"""The redaction corpora: secrets as a developer would type them (fake values in
each provider's real format, made from a seeded generator so every sample
differs) and ordinary developer text that must come through unchanged.
"""

from __future__ import annotations

import base64
import json
import random
import re
import string
from collections.abc import Callable
from dataclasses import dataclass

# Alphabets a secret template can draw from: {B64:40} is 40 base64 characters.
ALPHABETS = {
    "ALNUM": string.ascii_letters + string.digits,
    "LOWER": string.ascii_lowercase,
    "UPPER": string.ascii_uppercase,
    "DIGITS": string.digits,
    "UPPERDIGITS": string.ascii_uppercase + string.digits,
    "LOWERDIGITS": string.ascii_lowercase + string.digits,
    "HEX": string.digits + "abcdef",
    "B64": string.ascii_letters + string.digits + "+/",
    "B64URL": string.ascii_letters + string.digits + "-_",
    "BASE32": string.ascii_uppercase + "234567",
    "BECH32": "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L",
    "SYMBOLS": string.ascii_letters + string.digits + "!#%&@",
}
_FIELD = re.compile(r"\{(\w+)(?::(\d+))?\}")


class Fake:
    """Random values in a format, reproducible from a seed."""

    def __init__(self, seed: str) -> None:
        self.rng = random.Random(seed)

    def fill(self, template: str) -> str:
        """`template` with {ALPHABET:N}, {uuid}, {jwt} and {base64:N} filled in."""
        return _FIELD.sub(lambda field: self._field(field[1], int(field[2] or 0)), template)

    def _field(self, kind: str, length: int) -> str:
        if kind == "uuid":
            raw = self.chars(ALPHABETS["HEX"], 32)
            return f"{raw[:8]}-{raw[8:12]}-4{raw[13:16]}-a{raw[17:20]}-{raw[20:]}"
        if kind == "jwt":
            header = {"alg": "HS256", "typ": "JWT"}
            claims = {"sub": self.chars(string.digits, 10), "name": "Ada", "iat": 1700000000}
            parts = [_b64url(json.dumps(part).encode()) for part in (header, claims)]
            return ".".join([*parts, self.chars(ALPHABETS["B64URL"], 43)])
        if kind == "base64":  # `length` random characters, base64-encoded (k8s secrets)
            return base64.b64encode(self.chars(ALPHABETS["ALNUM"], length).encode()).decode()
        return self.chars(ALPHABETS[kind], length)

    def chars(self, alphabet: str, length: int) -> str:
        return "".join(self.rng.choice(alphabet) for _ in range(length))

    def card(self, prefix: str, length: int) -> str:
        body = prefix + self.chars(string.digits, length - len(prefix) - 1)
        return next(body + check for check in string.digits if luhn_valid(body + check))


def luhn_valid(digits: str) -> bool:
    total = 0
    for position, char in enumerate(reversed(digits)):
        value = int(char) * (2 if position % 2 else 1)
        total += value - 9 if value > 9 else value
    return total % 10 == 0


def _b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


@dataclass(frozen=True)
class Case:
    """A format: `make` returns a sentence and the secrets that must not survive."""

    name: str
    make: Callable[[Fake], tuple[str, list[str]]]


def case(name: str, sentence: str, secret: str) -> Case:
    """`sentence` with `{}` standing for a secret made from the `secret` template."""

    def make(fake: Fake) -> tuple[str, list[str]]:
        value = fake.fill(secret)
        return sentence.replace("{}", value), [value]

    return Case(name, make)


def _cards(fake: Fake) -> tuple[str, list[str]]:
    visa, amex = fake.card("4", 16), fake.card("37", 15)
    spaced = " ".join(visa[i : i + 4] for i in range(0, 16, 4))
    dashed = f"{amex[:4]}-{amex[4:10]}-{amex[10:]}"
    text = f"Test checkout with {spaced}, or the corporate Amex {dashed} if it bounces."
    return text, [spaced, visa, dashed, amex]


def _mastercard(fake: Fake) -> tuple[str, list[str]]:
    number = fake.card("5" + fake.chars("12345", 1), 16)
    return f"card on file {number}", [number]


def iban(country: str, account: str) -> str:
    """A valid IBAN: the check digits that make the mod-97 of the moved number 1."""
    moved = account + country + "00"
    number = int("".join(str(int(c, 36)) for c in moved))
    return f"{country}{98 - number % 97:02d}{account}"


def _ibans(fake: Fake) -> tuple[str, list[str]]:
    german = iban("DE", fake.chars(string.digits, 18))
    spaced = " ".join(german[i : i + 4] for i in range(0, len(german), 4))
    british = iban("GB", "NWBK" + fake.chars(string.digits, 14))
    text = f"Refunds go to {spaced}; the old account was {british}, closed in May."
    return text, [spaced, german[4:], british, british[8:]]


def _ssns(fake: Fake) -> tuple[str, list[str]]:
    area = str(fake.rng.choice([*range(1, 666), *range(667, 900)])).zfill(3)
    group, serial = str(fake.rng.randint(1, 99)).zfill(2), str(fake.rng.randint(1, 9999)).zfill(4)
    dashed, plain = f"{area}-{group}-{serial}", f"{area}{group}{serial}"
    text = f"For the W-9 my SSN is {dashed}; my wife's social security number: {plain}."
    return text, [dashed, plain]


def _private_sentences(fake: Fake) -> tuple[str, list[str]]:
    address = f"{fake.rng.randint(10, 99)} Elm Street"
    text = (
        "We decided to ship on Friday. <private>My home address is "
        f"{address}. Call me there.\nMy kid's school is Hillside.</private> Tabs over spaces."
    )
    return text, [address, "Hillside", "Call me there"]


def _unclosed_private(fake: Fake) -> tuple[str, list[str]]:
    diagnosis = fake.chars(string.ascii_lowercase, 10)
    text = f"Always use tabs. <private>I was diagnosed with {diagnosis}. Tell nobody."
    return text, [diagnosis, "Tell nobody"]


def _pem(kind: str) -> Callable[[Fake], tuple[str, list[str]]]:
    def make(fake: Fake) -> tuple[str, list[str]]:
        body = [fake.fill("MII{B64:61}") for _ in range(4)]
        block = "\n".join([f"-----BEGIN {kind}-----", *body, f"-----END {kind}-----"])
        return f"Here is the deploy key, keep it safe:\n{block}\nthanks", body

    return make


POSITIVE: tuple[Case, ...] = (
    # The seven formats the probe found stored verbatim.
    case("aws-secret-key-in-prose", "I put the AWS secret {} in the runbook.", "{B64:40}"),
    case("db-pass-line", "DB_PASS={}", "{SYMBOLS:14}"),
    case("heroku-api-key-uuid", "export HEROKU_API_KEY={}", "{uuid}"),
    case("heroku-key-uuid-in-prose", "Our Heroku API key is {}, rotate it monthly.", "{uuid}"),
    case("datadog-32-hex", "The datadog key {} is only for staging.", "{HEX:32}"),
    case("card-4111-test-number", "Use {} at checkout.", "4111 1111 1111 1111"),
    case("generic-40-hex", "The webhook signs with {} so keep it out of git.", "{HEX:40}"),
    Case("private-across-sentences", _private_sentences),
    # Provider prefixes.
    case("aws-access-key-id", "Deploy with AWS key {} from the ops vault.", "AKIA{BASE32:16}"),
    case("aws-secret-env", "AWS_SECRET_ACCESS_KEY={}", "{B64:40}"),
    case("github-pat-classic", "Let's go with {} as the release bot token.", "ghp_{ALNUM:36}"),
    case("github-oauth", "the CLI printed {} after login", "gho_{ALNUM:36}"),
    case("github-fine-grained", "New PAT: {}", "github_pat_{ALNUM:22}_{ALNUM:59}"),
    case("gitlab-pat", "GitLab CI uses {} for the mirror.", "glpat-{B64URL:20}"),
    case("slack-bot", "The alert bot posts with {}.", "xoxb-{DIGITS:12}-{DIGITS:13}-{ALNUM:24}"),
    case(
        "slack-webhook",
        "Post to {} for #deploys",
        "https://hooks.slack.com/services/T{UPPERDIGITS:8}/B{UPPERDIGITS:8}/{ALNUM:24}",
    ),
    case("stripe-live-secret", "Stripe runs on {} in production.", "sk_live_{ALNUM:24}"),
    case("stripe-restricted", "the reporting job has {}", "rk_live_{ALNUM:24}"),
    case("stripe-webhook-secret", "STRIPE_WEBHOOK_SECRET is {}", "whsec_{ALNUM:32}"),
    case("google-api-key", "Maps geocoding uses {}.", "AIza{B64URL:35}"),
    case("google-oauth-access", "curl with ya29 token {} worked", "ya29.{B64URL:60}"),
    case("google-client-secret", "client secret for the desktop app: {}", "GOCSPX-{B64URL:28}"),
    case("openai-project-key", "OPENAI_API_KEY={}", "sk-proj-{B64URL:48}"),
    case("anthropic-key", "Call Claude with {} in staging.", "sk-ant-api03-{B64URL:93}AA"),
    case("huggingface-token", "download the model with {}", "hf_{ALNUM:34}"),
    case("npm-token", "npm publishing uses {}", "npm_{ALNUM:36}"),
    case("pypi-token", "twine upload -u __token__ -p {}", "pypi-AgEIcHlwaS5vcmc{B64URL:60}"),
    case("sendgrid-key", "Mail goes through {}.", "SG.{B64URL:22}.{B64URL:43}"),
    case("twilio-api-key", "Twilio key {} sends the SMS codes.", "SK{HEX:32}"),
    case("mailchimp-key", "Newsletter key: {}", "{HEX:32}-us6"),
    case("shopify-token", "The storefront app token is {}.", "shpat_{HEX:32}"),
    case("digitalocean-pat", "Droplets are created with {}", "dop_v1_{HEX:64}"),
    case("databricks-token", "Notebook jobs run as {}", "dapi{HEX:32}"),
    case("doppler-token", "doppler service token {}", "dp.st.{ALNUM:43}"),
    case("linear-key", "Linear sync uses {}", "lin_api_{ALNUM:40}"),
    case("newrelic-user-key", "NR key {} for dashboards", "NRAK-{UPPERDIGITS:27}"),
    case("postman-key", "Postman collection runs with {}", "PMAK-{HEX:24}-{HEX:34}"),
    case("age-secret-key", "age identity: {}", "AGE-SECRET-KEY-1{BECH32:58}"),
    case(
        "telegram-bot-token", "The bot token {} belongs to @deploybot", "{DIGITS:10}:AA{B64URL:33}"
    ),
    case("azure-ad-client-secret", "App secret {} expires in June", "{ALNUM:3}8Q~{B64URL:34}"),
    case("hashicorp-vault-token", "VAULT_TOKEN={}", "hvs.{B64URL:95}"),
    case("jwt-bearer-header", "Send Authorization: Bearer {} to the API.", "{jwt}"),
    case("jwt-in-prose", "the session cookie was {} when it failed", "{jwt}"),
    # Keyword-anchored values.
    case("env-password", "We decided DB_PASSWORD={} for the replica.", "{ALNUM:8}&{ALNUM:4}"),
    case("json-password", 'config.json has "password": "{}" for the admin', "{SYMBOLS:16}"),
    case("yaml-client-secret", "client_secret: {}", "{ALNUM:30}"),
    case("python-api-key", 'api_key = "{}"', "{ALNUM:32}"),
    case("camel-case-token", "const authToken = '{}';", "{ALNUM:28}"),
    case(
        "prose-password-is",
        "Always remember the admin password is {}.",
        "{LOWER:6}-{LOWER:6}-{LOWER:6}-{LOWER:6}",
    ),
    case("prose-password-qualified", "the password for the staging db is {}", "{LOWER:10}"),
    case("prose-quoted-passphrase", 'The wifi password is "{}" in the lab.', "{LOWER:6} {LOWER:7}"),
    case("prose-changed-to", "I changed the root password to {} yesterday", "{LOWER:6}{DIGITS:3}"),
    case("pin", "My PIN is {}, don't tell anyone.", "{DIGITS:4}"),
    case("twilio-auth-token", "TWILIO_AUTH_TOKEN={}", "{HEX:32}"),
    case("okta-token-env", "OKTA_API_TOKEN={}", "00{B64URL:40}"),
    case("algolia-admin-key", "Algolia admin key: {}", "{LOWERDIGITS:32}"),
    case("sentry-dsn", "SENTRY_DSN=https://{}@o123456.ingest.sentry.io/4505", "{HEX:32}"),
    case("k8s-secret-data", "  password: {}", "{base64:12}"),
    case("xml-password", "<password>{}</password>", "{ALNUM:12}"),
    case("nuget-password", '<add key="ClearTextPassword" value="{}" />', "{ALNUM:14}"),
    case("cli-password-flag", "run ./migrate --password {} --host db", "{ALNUM:12}"),
    case("mysql-p", "mysql -u root -p{} shop", "{ALNUM:10}"),
    case("sshpass", "sshpass -p '{}' ssh deploy@web1", "{ALNUM:10}"),
    case("netrc", "machine api.heroku.com login ada@example.com password {}", "{uuid}"),
    case(
        "azure-storage-connection",
        "DefaultEndpointsProtocol=https;AccountName=shop;AccountKey={};EndpointSuffix=core",
        "{B64:86}==",
    ),
    case(
        "azure-sas-url",
        "see https://shop.blob.core.windows.net/x?sv=2022&sig={}&se=2026",
        "{ALNUM:43}%3D",
    ),
    case("query-access-token", "GET https://api.example.com/me?access_token={}&f=id", "{ALNUM:30}"),
    # Credentials inside URLs, headers and commands.
    case("postgres-url", "the db url is postgres://app:{}@db.internal:5432/app", "{ALNUM:12}-pw"),
    case("redis-url-no-user", "REDIS_URL=redis://:{}@cache:6379/0", "{ALNUM:20}"),
    case("mongodb-srv-url", "use mongodb+srv://svc:{}@cluster0.abcde.mongodb.net/db", "{ALNUM:16}"),
    case("basic-auth-header", "-H 'Authorization: Basic {}'", "{base64:16}"),
    case("curl-user", "curl -u admin:{} https://jenkins.internal/api", "{ALNUM:10}!"),
    case("x-api-key-header", '-H "X-API-Key: {}"', "{ALNUM:32}"),
    case("docker-login", "docker login -u ci -p {} registry.example.com", "{ALNUM:20}"),
    # Key material, cards and unnamed random tokens.
    Case("pem-rsa-private-key", _pem("RSA PRIVATE KEY")),
    Case("pem-openssh-private-key", _pem("OPENSSH PRIVATE KEY")),
    Case("pgp-private-key-block", _pem("PGP PRIVATE KEY BLOCK")),
    case(
        "gcp-service-account-json",
        '"private_key": "-----BEGIN PRIVATE KEY-----\\n{}\\n-----END PRIVATE KEY-----\\n",',
        "MIIEvQ{B64:120}",
    ),
    case("random-alnum-in-prose", "Paste {} into the settings page.", "{ALNUM:40}"),
    case("random-base64url-in-prose", "the invite code was {} for the beta", "{B64URL:43}"),
    case("hex-64-in-prose", "signing secret {}", "{HEX:64}"),
    Case("cards-visa-spaced-amex-dashed", _cards),
    Case("card-mastercard-plain", _mastercard),
    Case("private-unclosed", _unclosed_private),
    Case("iban-spaced-and-compact", _ibans),
    Case("us-ssn-dashed-and-after-a-cue", _ssns),
)

NEGATIVE: tuple[str, ...] = tuple(
    line.strip()
    for line in """
    See src/components/ConfigurationManager.tsx for the provider setup.
    The fix is in /usr/lib/python3.11/site-packages/numpy/_umath.cpython-311-x86_64-linux-gnu.so
    Open C:\\Users\\ada\\AppData\\Local\\Programs\\Python\\Python311\\python.exe and retry.
    Docs: https://github.com/gitleaks/gitleaks/blob/master/config/gitleaks.toml
    https://pypi.org/project/detect-secrets/1.5.0/ is the release we tried.
    Hit http://localhost:8000/api/v1/users?page=2&limit=50 to see pagination.
    The sheet is at https://docs.example.com/guides/getting-started#install
    Bumped requests from 2.31.0 to 2.32.3 and pydantic to 2.7.1.
    We pin numpy==1.26.4 and torch>=2.2,<3 in pyproject.toml.
    Release 1.2.3-beta.4+build.567 went out; next is v2.0.0-rc.1.
    node@20.11.1 and @types/node@^20.11.5 are in package.json.
    Use python:3.11-slim-bookworm as the base image, not nginx:1.25-alpine.
    The accent colour is #ff8800 and the border is #FFF or rgba(0, 0, 0, 0.5).
    Tailwind class text-slate-700 hover:bg-indigo-500 looks fine.
    Rename snake_case_function_name_here to parse_frontmatter_block.
    getUserProfileByEmailAddress returns None when the user is archived.
    AbstractSingletonProxyFactoryBean is a joke, please don't.
    The Authorization header must be set; ConfigurationManager reads it.
    HTTP_X_FORWARDED_FOR is trusted only behind the load balancer.
    test_redact_masks_every_format_in_the_corpus should stay fast.
    kebab-case-component-name is the convention for Vue files.
    Reverted a1b2c3d and cherry-picked 3f2a1b9c0d onto main.
    The regression came in 9fceb02d0ae5 (short sha) last week.
    git checkout -b feature/add-oauth-login-with-pkce
    Meeting moved to 2024-03-15T10:30:00Z, backup slot 2024-03-18.
    The job ran from 2026-01-01 09:00 to 2026-01-01 09:42 UTC.
    Bind to 0.0.0.0:8080 in the container, 127.0.0.1:5432 locally.
    The VPC is 10.0.0.0/16 and the gateway is 192.168.1.254.
    IPv6 loopback [::1]:6379 also works.
    2024-03-15 10:30:00,123 INFO [worker-3] processed 1500 events in 2.3s
    File "/app/src/handlers/payment_webhook.py", line 42, in handle_event
    ValueError: invalid literal for int() with base 10: 'abc'
    pip install -r requirements.txt && pytest -q tests/memory -x
    docker run -p 8080:80 -v $(pwd)/data:/data nginx:1.25-alpine
    kubectl get pods -n payments -l app=payments-api
    payments-api-deployment-7d9f8b6c4-x2x9z crashed with OOMKilled.
    The order id is ORD-2024-000123 and the phone is +1 415 555 2671.
    Revenue was 1,234,567 dollars in Q3; 3.14159 is close enough.
    Epoch ms 1700000000000 converts to 2023-11-14.
    Request id 1c8073cf-27b0-42a3-8365-3ebada615d84 failed with 502.
    uuid4() gave 0d43a82a-9ef4-4e8b-9942-beb00dd51cba in the fixture.
    The API key is required for all requests.
    Rotate the token every 90 days and store the API key in the keychain.
    The password reset flow is broken on Safari.
    The password was reset yesterday after the incident.
    Credentials are loaded from ~/.aws/credentials by boto3.
    The secret is to keep functions small.
    Our secret manager is AWS Secrets Manager, not Vault.
    The token expires after 3600 seconds.
    Set the token to expire after an hour.
    Change the password to something stronger.
    Bearer tokens are validated by the gateway; Basic Authentication is off.
    Use token authentication for the admin endpoint.
    def login(user: str, password: str) -> bool:
    password = os.environ["DB_PASSWORD"]
    api_key: str | None = None
    token: Optional[str] = None
    connect(host=host, password=password, token=access_token)
    self.client_secret = settings.CLIENT_SECRET
    secret_key = os.getenv("SECRET_KEY", "")
    if token is None: raise AuthError("missing token")
    assert password is not None
    const apiKey: string = process.env.API_KEY!;
    password: ${DB_PASSWORD}
    token: "{{ secrets.DEPLOY_TOKEN }}"
    DB_PASSWORD=<your password here>
    max_tokens: 4096
    tokenizer: bert-base-uncased
    TOKEN_EXPIRY_SECONDS=3600 and PASSWORD_MIN_LENGTH = 12
    SORT_KEY=created_at, PARTITION_KEY=tenant_id
    id = Column(Integer, primary_key=True)
    sorted(rows, key=lambda row: row.created_at)
    The key: value pairs go in the [tool.ruff] table.
    The bypass: true flag skips the cache.
    --password-file /run/secrets/db_password is how compose passes it.
    Pin: numpy and scipy together.
    The secretary approved the budget.
    The token bucket allows 50 requests per second.
    Use `token_url` for the OAuth flow and `authorize_url` for the redirect.
    Password hashing uses argon2id with memory_cost=65536.
    The function returns a Promise<string> resolving to the user's name.
    SELECT id, email FROM users WHERE created_at > NOW() - INTERVAL '7 days';
    Run make check before pushing; it runs ruff, mypy and pytest.
    The encoder maps UTF-8 bytes to 384-dimensional float32 vectors.
    Heroku is where the demo app runs; Datadog is our monitoring vendor.
    GitHub is at v3.2.1 of the action, Sentry at 7.100.1.
    Stripe webhooks retry for 3 days.
    ssh deploy@web1.internal -p 2222
    Set-Cookie: theme=dark; Path=/; HttpOnly
    pytest -k "test_private and not slow" -x --timeout=60
    The matrix runs Python 3.11, 3.12 and 3.13 on ubuntu-22.04.
    The logs are in ~/.claude/projects/-work-main/sessions.jsonl
    Use sentence-transformers/all-MiniLM-L6-v2 for embeddings.
    The cron is 0 3 * * 1-5 in Europe/Berlin.
    Average latency p95 was 245ms, p99 812ms over 12000 requests.
    He said the passphrase policy is too strict.
    All credentials were rotated on Monday.
    The session token is stored in an HttpOnly cookie.
    See RFC 6749 section 4.1 for the authorization code grant.
    The default port for PostgreSQL is 5432 and Redis uses 6379.
    data:image/png;base64 prefixes are stripped before upload.
    The dataclass has frozen=True and slots=True.
    Try https://huggingface.co/mistralai/Voxtral-Mini-3B-2507 or PekingU/rtdetr_v2_r50vd.
    BLAS comes from https://github.com/OpenMathLib/OpenBLAS/ on Linux.
    ![diagram](https://github.com/user-attachments/assets/247fb16d-d251-4583-96c4-d3d76dda4925)
    Wav2Vec2ForCTC and sizeEndCentDir64Locator are just long identifiers.
    FileClosedNoWriteEvent fires after a read-only open.
    Secrets (cloud keys, GitHub/GitLab/Slack/Stripe/npm tokens) are masked.
    huggingface-cli login --token $HF_TOKEN
    self.token = nextchar
    Token = Ignore + PlainToken
    'pass': ('pass', ''),
    return '<a href="topic?key=%s">%s</a>' % (name, name)
    raise TypeError("pwd: expected bytes, got %s" % type(pwd).__name__)
    ERRORTOKEN = 60
    IPv6Address(42540766411282592856903984951653826560)
    PEM_HEADER = "-----BEGIN CERTIFICATE-----"
    spring.datasource.url=jdbc:postgresql://db:5432/app
    Ticket PROJ-1234 moved to sprint 12-34-5678 and ISO codes DE, GB and FR are in scope.
    The test IBAN GB00 NWBK 6016 1331 9268 19 fails its checksum, as it should.
    Call 415-555-2671 or the office line 030-12-3456-0; build 2024-11-0042 shipped.
    """.strip().splitlines()
)
