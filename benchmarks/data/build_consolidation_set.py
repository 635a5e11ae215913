"""Build consolidation_set.json from the hand-written memories below.

Memories are written with symbolic keys (d1a, c3b, hn_staging_port, ...) so the
structures can name them; ids m001... are assigned in order of `created`, so a
lower id is always an older memory. Run: python3 build_consolidation_set.py
"""

from __future__ import annotations

import json
from pathlib import Path

API = "github.com/acme/api"
WORKER = "github.com/acme/worker"
WEB = "github.com/acme/dashboard"
INFRA = "github.com/acme/infra"
CLI = "github.com/jdoe/logslice"
G = ""  # global: a personal preference or fact not tied to one project

# (key, created UTC "YYYY-MM-DDTHH:MM", kind, project, topic, text)
MEMORIES: list[tuple[str, str, str, str, str, str]] = [
    # ---- big duplicate groups (5-8 members: must merge) ----
    # D1 pytest fixtures
    (
        "d1a",
        "2025-08-06T10:14",
        "preference",
        G,
        "testing",
        "Use pytest fixtures rather than unittest setUp/tearDown in this codebase; sharing setup "
        "between test files was painful with TestCase classes on a previous project.",
    ),
    (
        "d1b",
        "2025-09-02T15:40",
        "preference",
        G,
        "testing",
        "Prefers pytest fixtures to setUp/tearDown methods for test setup.",
    ),
    (
        "d1c",
        "2025-10-13T11:05",
        "preference",
        G,
        "testing",
        "Don't write unittest.TestCase classes with setUp; the user wants plain pytest test "
        "functions with fixtures, and shared fixtures go in conftest.py.",
    ),
    (
        "d1d",
        "2025-12-01T09:30",
        "preference",
        G,
        "testing",
        "Test setup belongs in fixtures, not in setUp/tearDown. The user said this again while "
        "reviewing the worker tests.",
    ),
    (
        "d1e",
        "2026-02-10T14:22",
        "preference",
        G,
        "testing",
        "Reminder from the user: pytest-style fixtures, with yield for the teardown part, instead "
        "of TestCase setUp and tearDown.",
    ),
    # D2 rebase instead of merge
    (
        "d2a",
        "2025-08-12T16:02",
        "preference",
        G,
        "git",
        "Rebase feature branches onto main instead of merging main into them; the user wants a "
        "linear history.",
    ),
    (
        "d2b",
        "2025-09-09T10:48",
        "preference",
        G,
        "git",
        "User prefers git rebase over merge commits when updating a branch, because git bisect is "
        "much easier on a linear history.",
    ),
    (
        "d2c",
        "2025-10-02T13:15",
        "preference",
        G,
        "git",
        "Keep history linear: rebase on origin/main, never create a 'Merge branch main into "
        "feature' commit.",
    ),
    (
        "d2d",
        "2025-11-04T17:30",
        "preference",
        G,
        "git",
        "When a branch falls behind main, rebase it rather than merging, then push with "
        "--force-with-lease, never a plain --force.",
    ),
    (
        "d2e",
        "2026-01-14T09:55",
        "preference",
        G,
        "git",
        "No merge commits from main into feature branches please; rebase instead.",
    ),
    # D3 api tests need the compose db
    (
        "d3a",
        "2025-08-07T11:30",
        "procedure",
        API,
        "testing",
        "Start Postgres with `docker compose up -d db` before running the API test suite; without "
        "it every test fails with connection refused.",
    ),
    (
        "d3b",
        "2025-08-28T09:10",
        "procedure",
        API,
        "testing",
        "API tests need the database container running first (docker compose up -d db).",
    ),
    (
        "d3c",
        "2025-10-21T14:45",
        "procedure",
        API,
        "testing",
        "If the API tests all error with 'connection refused' on port 5433, the db container is "
        "not up: run docker compose up -d db.",
    ),
    (
        "d3d",
        "2025-12-09T10:05",
        "procedure",
        API,
        "testing",
        "Before running pytest in the api repo, bring up the compose db service; the tests do not "
        "start it themselves.",
    ),
    (
        "d3e",
        "2026-02-24T16:40",
        "procedure",
        API,
        "testing",
        "The api test suite expects the docker compose Postgres (service 'db') to be running "
        "already. It is mapped to port 5433 so it doesn't clash with a system Postgres on 5432.",
    ),
    # D4 dashboard server state in TanStack Query
    (
        "d4a",
        "2025-09-15T10:20",
        "decision",
        WEB,
        "frontend",
        "In the dashboard, server data is fetched and cached with TanStack Query hooks; "
        "it is never copied into the client store.",
    ),
    (
        "d4b",
        "2025-10-08T15:00",
        "decision",
        WEB,
        "frontend",
        "Dashboard rule: API data belongs in TanStack Query, and the global store is only for UI "
        "state such as open panels and filters.",
    ),
    (
        "d4c",
        "2025-11-12T11:45",
        "decision",
        WEB,
        "frontend",
        "Don't put fetched invoices into zustand; use a useQuery hook, with the query key taken "
        "from the factory in src/api/keys.ts.",
    ),
    (
        "d4d",
        "2026-01-08T13:30",
        "decision",
        WEB,
        "frontend",
        "Server state in the dashboard goes through React Query (TanStack), not through the store.",
    ),
    (
        "d4e",
        "2026-03-10T10:10",
        "decision",
        WEB,
        "frontend",
        "The user repeated that fetched data in the dashboard must stay in TanStack Query's cache. "
        "Copying it into the store is what caused the stale invoice totals last year.",
    ),
    # D5 concise answers (8 members)
    (
        "d5a",
        "2025-08-05T09:02",
        "preference",
        G,
        "communication",
        "Keep answers short: show the change and skip long explanations unless asked.",
    ),
    (
        "d5b",
        "2025-08-19T14:30",
        "preference",
        G,
        "communication",
        "User dislikes long preambles in replies; get to the point.",
    ),
    (
        "d5c",
        "2025-09-04T10:00",
        "preference",
        G,
        "communication",
        "When the user asks for a shell command, reply with just the command, not a tutorial "
        "around it.",
    ),
    (
        "d5d",
        "2025-09-30T16:12",
        "preference",
        G,
        "communication",
        "Prefers terse responses; a diff beats a paragraph describing the diff.",
    ),
    (
        "d5e",
        "2025-11-06T08:50",
        "preference",
        G,
        "communication",
        "The user asked again for shorter replies with less explanation.",
    ),
    (
        "d5f",
        "2025-12-15T11:11",
        "preference",
        G,
        "communication",
        "Be concise, and don't end a reply with a summary of what was just done.",
    ),
    (
        "d5g",
        "2026-01-27T15:35",
        "preference",
        G,
        "communication",
        "User: 'too long, just tell me what to change'. Keep responses brief.",
    ),
    (
        "d5h",
        "2026-03-16T09:40",
        "preference",
        G,
        "communication",
        "Brevity preferred: answer first, and explain only if asked.",
    ),
    # D6 worker idempotency
    (
        "d6a",
        "2025-08-21T13:20",
        "fact",
        WORKER,
        "reliability",
        "Worker jobs must be idempotent: SQS delivers at least once, so the same message can "
        "arrive twice.",
    ),
    (
        "d6b",
        "2025-09-23T10:35",
        "fact",
        WORKER,
        "reliability",
        "Every job handler in the worker checks the processed_jobs table for the job id before "
        "doing any work, so a redelivered message is a no-op.",
    ),
    (
        "d6c",
        "2025-11-18T15:50",
        "fact",
        WORKER,
        "reliability",
        "Customers got duplicate invoice emails because one handler wasn't idempotent; worker jobs "
        "can be delivered more than once.",
    ),
    (
        "d6d",
        "2026-01-20T11:00",
        "fact",
        WORKER,
        "reliability",
        "Write worker handlers so that running them twice with the same message is harmless.",
    ),
    (
        "d6e",
        "2026-03-05T14:15",
        "fact",
        WORKER,
        "reliability",
        "A job that outlives the SQS visibility timeout gets delivered again, so every worker "
        "handler has to tolerate running twice.",
    ),
    # D7 terraform only through Atlantis
    (
        "d7a",
        "2025-08-26T10:00",
        "procedure",
        INFRA,
        "infra",
        "Never run terraform apply from a laptop: open a PR, let Atlantis post the plan, and apply "
        "through Atlantis after approval.",
    ),
    (
        "d7b",
        "2025-09-18T16:25",
        "procedure",
        INFRA,
        "infra",
        "Infra changes: the plan output must be in the PR before anything is applied.",
    ),
    (
        "d7c",
        "2025-10-30T09:45",
        "procedure",
        INFRA,
        "infra",
        "Terraform apply only happens through the PR workflow (atlantis apply), never locally.",
    ),
    (
        "d7d",
        "2026-01-06T13:05",
        "procedure",
        INFRA,
        "infra",
        "Applying Terraform from your own machine is off limits in the infra repo; the plan goes "
        "in the pull request and gets reviewed first.",
    ),
    (
        "d7e",
        "2026-02-17T10:30",
        "procedure",
        INFRA,
        "infra",
        "Review the terraform plan in the PR, then comment 'atlantis apply'. State lives in the "
        "S3 bucket acme-tf-state and is only written by Atlantis.",
    ),
    # D8 logslice: standard library only
    (
        "d8a",
        "2025-08-30T20:15",
        "preference",
        CLI,
        "dependencies",
        "logslice should depend only on the Go standard library.",
    ),
    (
        "d8b",
        "2025-10-04T21:00",
        "preference",
        CLI,
        "dependencies",
        "No third-party modules in logslice; the user wants it buildable with nothing but the Go "
        "toolchain.",
    ),
    (
        "d8c",
        "2025-11-22T19:40",
        "preference",
        CLI,
        "dependencies",
        "For logslice, reach for the standard library first: the user rejected adding cobra and "
        "wants the plain flag package for argument parsing.",
    ),
    (
        "d8d",
        "2026-01-31T18:30",
        "preference",
        CLI,
        "dependencies",
        "Keep logslice free of dependencies so the static binary stays small for the Homebrew "
        "formula.",
    ),
    (
        "d8e",
        "2026-03-21T20:05",
        "preference",
        CLI,
        "dependencies",
        "logslice: standard library only, no external Go modules.",
    ),
    # ---- small duplicate groups (2-4 members: dedupe, below merge maturity) ----
    (
        "s1a",
        "2025-08-14T11:00",
        "preference",
        G,
        "code-review",
        "Keep pull requests small: one concern each, ideally under 400 changed lines.",
    ),
    (
        "s1b",
        "2025-10-16T15:20",
        "preference",
        G,
        "code-review",
        "User prefers several small PRs over one big one; reviewers at Acme skip giant diffs.",
    ),
    (
        "s1c",
        "2026-02-03T10:45",
        "preference",
        G,
        "code-review",
        "Split this work into smaller PRs; the user wants each PR reviewable in one sitting.",
    ),
    (
        "s2a",
        "2025-09-11T14:00",
        "decision",
        API,
        "api-design",
        "API errors are returned as RFC 7807 problem+json bodies with type, title and detail.",
    ),
    (
        "s2b",
        "2026-01-15T11:25",
        "decision",
        API,
        "api-design",
        "Error responses from the API use the application/problem+json format (RFC 7807).",
    ),
    (
        "s3a",
        "2025-08-20T10:30",
        "decision",
        WEB,
        "frontend",
        "Dashboard components are styled with CSS modules; no styled-components or other "
        "CSS-in-JS.",
    ),
    (
        "s3b",
        "2025-12-04T14:10",
        "decision",
        WEB,
        "frontend",
        "Styling in the dashboard: a .module.css file next to each component, not CSS-in-JS.",
    ),
    (
        "s5a",
        "2025-09-05T13:40",
        "fact",
        WORKER,
        "observability",
        "The worker logs JSON lines to stdout, and Loki collects them from the pods.",
    ),
    (
        "s5b",
        "2025-11-10T10:50",
        "fact",
        WORKER,
        "observability",
        "Worker logging: structured JSON to stdout only, no log files.",
    ),
    (
        "s5c",
        "2026-02-19T15:05",
        "fact",
        WORKER,
        "observability",
        "Worker log output is one JSON object per line on stdout, picked up by Loki; every line "
        "includes the job_id.",
    ),
    (
        "s6a",
        "2025-08-27T12:00",
        "fact",
        INFRA,
        "infra",
        "The production Kubernetes cluster runs in eu-west-1.",
    ),
    (
        "s6b",
        "2025-12-11T16:30",
        "fact",
        INFRA,
        "infra",
        "Prod EKS lives in AWS region eu-west-1 (Ireland).",
    ),
    (
        "s7a",
        "2025-08-11T10:10",
        "decision",
        API,
        "database",
        "Money amounts are stored as integer cents, never as floats.",
    ),
    (
        "s7b",
        "2025-09-25T14:55",
        "decision",
        API,
        "database",
        "Invoice totals are bigint cents in Postgres; float rounding errors bit us in the old "
        "billing system.",
    ),
    (
        "s7c",
        "2025-12-02T11:40",
        "decision",
        API,
        "database",
        "Amounts in the billing API are integers in minor units (cents), with the currency code "
        "stored alongside.",
    ),
    (
        "s7d",
        "2026-03-12T13:20",
        "decision",
        API,
        "database",
        "Never use float for money in the api repo; use int cents.",
    ),
    (
        "s8a",
        "2025-08-18T16:45",
        "preference",
        G,
        "git",
        "Commit messages: imperative mood, subject under 50 characters, a blank line, then the "
        "why.",
    ),
    (
        "s8b",
        "2025-10-28T10:15",
        "preference",
        G,
        "git",
        "User wants commit subjects in the imperative ('Add', 'Fix'), short, with the reasoning "
        "in the body.",
    ),
    (
        "s8c",
        "2026-01-22T17:00",
        "preference",
        G,
        "git",
        "Write commit messages like 'Fix retry on timeout', not 'Fixed' or 'Fixes'; keep the "
        "subject line short.",
    ),
    (
        "s9a",
        "2025-09-13T19:30",
        "procedure",
        CLI,
        "release",
        "logslice releases are built by goreleaser when a v* tag is pushed.",
    ),
    (
        "s9b",
        "2026-01-10T20:20",
        "procedure",
        CLI,
        "release",
        "To release logslice, tag vX.Y.Z and push the tag; the goreleaser workflow builds the "
        "binaries and updates the Homebrew tap.",
    ),
    (
        "s10a",
        "2025-08-25T15:10",
        "decision",
        API,
        "api-design",
        "API responses use UTC timestamps in ISO 8601 with a Z suffix.",
    ),
    (
        "s10b",
        "2025-10-23T09:35",
        "decision",
        API,
        "api-design",
        "All datetimes the API returns are UTC, formatted like 2025-10-23T09:35:00Z.",
    ),
    (
        "s10c",
        "2026-02-26T14:00",
        "decision",
        API,
        "api-design",
        "No local-time offsets in API payloads: always ISO 8601 UTC ending in Z.",
    ),
    (
        "s11a",
        "2025-09-08T11:50",
        "preference",
        G,
        "style",
        "No emoji in commit messages, code comments or docs.",
    ),
    (
        "s11b",
        "2026-01-05T10:25",
        "preference",
        G,
        "style",
        "The user doesn't want emoji anywhere in code or commit messages.",
    ),
    (
        "s12a",
        "2025-09-19T13:00",
        "fact",
        WEB,
        "testing",
        "Dashboard tests mock the API with MSW handlers at the network level, not by mocking "
        "fetch.",
    ),
    (
        "s12b",
        "2025-11-25T15:45",
        "fact",
        WEB,
        "testing",
        "For dashboard component tests, add an MSW handler in src/mocks/handlers.ts instead of "
        "vi.mock-ing the API client.",
    ),
    (
        "s12c",
        "2026-03-18T11:10",
        "fact",
        WEB,
        "testing",
        "Dashboard tests intercept HTTP with Mock Service Worker rather than stubbing fetch.",
    ),
    (
        "s13a",
        "2025-10-06T14:20",
        "fact",
        WORKER,
        "reliability",
        "Failed worker jobs are retried with exponential backoff and jitter, at most 5 attempts, "
        "then sent to the dead-letter queue.",
    ),
    (
        "s13b",
        "2026-02-12T10:00",
        "fact",
        WORKER,
        "reliability",
        "Worker retry policy: 5 attempts max, exponential backoff with jitter.",
    ),
    (
        "s14a",
        "2025-09-03T10:40",
        "decision",
        INFRA,
        "security",
        "Secrets live in AWS Secrets Manager and reach pods through the external-secrets "
        "operator; never put them in Helm values.",
    ),
    (
        "s14b",
        "2025-11-13T14:25",
        "decision",
        INFRA,
        "security",
        "No secrets in the Helm charts: reference them with ExternalSecret resources backed by "
        "Secrets Manager.",
    ),
    (
        "s14c",
        "2026-02-05T16:15",
        "decision",
        INFRA,
        "security",
        "Kubernetes secrets are synced from AWS Secrets Manager by external-secrets; values files "
        "must never contain credentials.",
    ),
    (
        "s15a",
        "2025-09-29T15:30",
        "preference",
        G,
        "testing",
        "A flaky test gets fixed or deleted; never paper over it with pytest-rerunfailures or "
        "retries.",
    ),
    (
        "s15b",
        "2026-01-29T11:50",
        "preference",
        G,
        "testing",
        "User won't accept retry decorators on flaky tests: find the cause or remove the test.",
    ),
    (
        "s16a",
        "2025-08-13T10:00",
        "fact",
        API,
        "deployment",
        "In production the API's uvicorn process binds to port 8000.",
    ),
    (
        "s16b",
        "2025-09-16T14:35",
        "fact",
        API,
        "deployment",
        "Production API port is 8000 (uvicorn).",
    ),
    # ---- contradictions (older, newer) ----
    (
        "c1a",
        "2025-08-09T15:00",
        "fact",
        API,
        "deployment",
        "The API is deployed to Heroku with `git push heroku main`.",
    ),
    (
        "c1b",
        "2025-10-10T17:20",
        "episode",
        API,
        "deployment",
        "Spent the afternoon on the Heroku bill and on the dyno restarts that keep killing long "
        "invoice exports. Heroku's 30-second router timeout also cut off the PDF batch endpoint "
        "twice this week. Compared Fly.io and Render; Fly gives us persistent machines in "
        "Amsterdam close to the database. We moved the API off Heroku to Fly.io, and deploys are "
        "now `fly deploy` from CI.",
    ),
    (
        "c1c",
        "2026-01-19T10:40",
        "fact",
        API,
        "deployment",
        "The API is deployed to the production EKS cluster by the GitHub Actions workflow, which "
        "runs helm upgrade with the chart from acme/infra.",
    ),
    (
        "c2new",
        "2026-01-21T11:20",
        "fact",
        API,
        "deployment",
        "Production API now binds to port 8080; the Helm chart's probes and the ALB target group "
        "point at 8080.",
    ),
    ("c3a", "2025-08-15T11:15", "fact", API, "python", "The api repo targets Python 3.10."),
    (
        "c3b",
        "2025-10-17T10:00",
        "fact",
        API,
        "python",
        "api now requires Python 3.11; the CI matrix and the Dockerfile were bumped.",
    ),
    ("c3c", "2026-02-13T14:30", "fact", API, "python", "The API runs on Python 3.12."),
    (
        "c4a",
        "2025-08-06T16:00",
        "preference",
        G,
        "python",
        "Manage Python dependencies with pip-tools: requirements.in compiled to a pinned "
        "requirements.txt.",
    ),
    (
        "c4b",
        "2025-09-22T11:30",
        "preference",
        G,
        "python",
        "Python projects use Poetry for dependencies and the lock file.",
    ),
    (
        "c4c",
        "2025-12-16T15:10",
        "preference",
        G,
        "python",
        "We moved off Poetry to uv: `uv sync` and a uv.lock in every Python repo.",
    ),
    (
        "c5a",
        "2025-08-22T14:00",
        "fact",
        WEB,
        "testing",
        "Dashboard unit tests run with Jest (npm test).",
    ),
    (
        "c5b",
        "2025-11-05T16:40",
        "fact",
        WEB,
        "testing",
        "We switched the dashboard from Jest to Vitest; test files import from 'vitest'.",
    ),
    (
        "c6a",
        "2025-08-29T10:25",
        "fact",
        API,
        "reliability",
        "The payment provider client in the API uses a 30 second HTTP timeout.",
    ),
    (
        "c6b",
        "2025-11-14T18:05",
        "episode",
        API,
        "reliability",
        "Payments outage this morning: the provider hung for minutes and every API worker sat "
        "waiting on it with the 30 s timeout, so checkout requests piled up and the API machines "
        "ran out of connections. The provider's status page only admitted the incident an hour "
        "later. Checkout errors stayed around 40% for almost an hour. "
        "We added a circuit breaker and lowered the payment client timeout to 10 seconds.",
    ),
    (
        "c7a",
        "2025-08-20T15:30",
        "fact",
        WORKER,
        "team",
        "The worker service is owned by Priya's payments-platform team; page them for worker "
        "incidents.",
    ),
    (
        "c7b",
        "2025-12-08T09:20",
        "fact",
        WORKER,
        "team",
        "Marco's data team owns the worker service; contact them for worker incidents.",
    ),
    (
        "c8a",
        "2025-09-01T13:45",
        "decision",
        API,
        "database",
        "Database tables in the api repo use plural names: users, invoices, payments.",
    ),
    (
        "c8b",
        "2026-01-12T15:25",
        "decision",
        API,
        "database",
        "We switched the api schema to singular table names (user, invoice, payment) and renamed "
        "the old plural tables in migration 0042.",
    ),
    (
        "c9a",
        "2025-08-16T10:50",
        "decision",
        WEB,
        "frontend",
        "The dashboard keeps client state in Redux Toolkit slices.",
    ),
    (
        "c9b",
        "2025-10-20T14:35",
        "decision",
        WEB,
        "frontend",
        "Client state in the dashboard is a small zustand store.",
    ),
    (
        "c10a",
        "2025-08-27T15:20",
        "fact",
        INFRA,
        "infra",
        "The production cluster runs Kubernetes 1.27.",
    ),
    (
        "c10b",
        "2025-10-24T16:50",
        "episode",
        INFRA,
        "infra",
        "Upgraded prod EKS today, stepping through 1.28 first because EKS only moves one minor "
        "version at a time. The 1.29 step stalled because two Helm charts still used the removed "
        "flowcontrol v1beta2 API, so we bumped those charts. Node groups rolled one at a time and "
        "the worker drained cleanly. Production now runs Kubernetes 1.29.",
    ),
    ("c10c", "2026-02-09T11:00", "fact", INFRA, "infra", "Prod EKS is on Kubernetes 1.30."),
    (
        "c11a",
        "2025-08-10T12:00",
        "preference",
        G,
        "python",
        "Format Python with black and sort imports with isort.",
    ),
    (
        "c11b",
        "2025-10-29T10:40",
        "preference",
        G,
        "python",
        "Switched from black and isort to ruff: `ruff format` plus ruff's import sorting, line "
        "length 100.",
    ),
    (
        "c12a",
        "2025-08-14T15:45",
        "decision",
        API,
        "config",
        "The API reads its settings from config.yaml at the repo root.",
    ),
    (
        "c12b",
        "2025-11-19T13:10",
        "decision",
        API,
        "config",
        "API configuration now comes only from environment variables parsed by a "
        "pydantic-settings class; config.yaml is gone.",
    ),
    (
        "c14a",
        "2025-09-10T10:30",
        "fact",
        WORKER,
        "performance",
        "The worker runs 4 processes per pod.",
    ),
    (
        "c14b",
        "2026-01-07T17:45",
        "episode",
        WORKER,
        "performance",
        "Profiled the worker during the month-end invoice run: CPU sat under 30% while jobs "
        "waited on Postgres and the PDF service. Each process only uses about 180 MB, so the pods "
        "had plenty of memory headroom. On staging, 8 processes cleared the backlog twice as fast "
        "as 4 without new errors. Worker concurrency raised to 8 processes per pod.",
    ),
    (
        "c15a",
        "2025-09-12T09:00",
        "fact",
        INFRA,
        "oncall",
        "Production alerts page the on-call engineer through PagerDuty (schedule "
        "platform-primary).",
    ),
    (
        "c15b",
        "2026-02-02T10:15",
        "fact",
        INFRA,
        "oncall",
        "On-call paging moved from PagerDuty to Opsgenie; the rotation is now the 'platform' "
        "schedule there.",
    ),
    (
        "c16a",
        "2025-08-19T11:20",
        "decision",
        API,
        "python",
        "The API makes outbound HTTP calls with requests.",
    ),
    (
        "c16b",
        "2025-12-18T14:50",
        "decision",
        API,
        "python",
        "Outbound HTTP in the API goes through a shared httpx.AsyncClient.",
    ),
    (
        "c20a",
        "2025-09-17T11:40",
        "fact",
        WORKER,
        "schedule",
        "The nightly reconciliation job runs at 02:00 UTC.",
    ),
    (
        "c20b",
        "2026-01-16T09:50",
        "fact",
        WORKER,
        "schedule",
        "The nightly reconciliation job runs at 04:30 UTC, after the bank's export file lands.",
    ),
    (
        "c21a",
        "2025-09-24T16:00",
        "fact",
        API,
        "team",
        "Sam is the code owner for the billing module (src/billing) in the api repo.",
    ),
    (
        "c21b",
        "2026-03-02T10:05",
        "fact",
        API,
        "team",
        "Dana is the code owner for src/billing in the api repo; request her review for billing "
        "changes.",
    ),
    (
        "c22a",
        "2025-08-07T09:00",
        "fact",
        G,
        "tooling",
        "The user codes in VS Code with the Python and ESLint extensions.",
    ),
    (
        "c22b",
        "2025-12-22T10:30",
        "fact",
        G,
        "tooling",
        "The user moved from VS Code to Neovim (LazyVim); give Neovim keymaps and config, not VS "
        "Code settings.",
    ),
    (
        "c24a",
        "2025-09-30T10:20",
        "fact",
        API,
        "api-design",
        "The public API allows 100 requests per minute per API key.",
    ),
    (
        "c24b",
        "2026-03-09T15:40",
        "fact",
        API,
        "api-design",
        "The public API rate limit is 300 requests per minute per key.",
    ),
    # ---- hard negatives (coexist with the facts above; must not merge or be flagged) ----
    (
        "hn_staging_port",
        "2026-01-23T14:10",
        "fact",
        API,
        "deployment",
        "Staging runs on a single VM, so the staging API binds to port 8081 next to the mock "
        "payment provider on 8080.",
    ),
    (
        "hn_worker_py311",
        "2026-02-20T10:35",
        "fact",
        WORKER,
        "python",
        "The worker stays on Python 3.11 for now because the pyarrow version we pin has no 3.12 "
        "wheels.",
    ),
    (
        "hn_worker_job_timeout",
        "2025-12-12T13:15",
        "fact",
        WORKER,
        "reliability",
        "Each worker job has a hard time limit of 300 seconds; a job that runs longer is killed "
        "and retried.",
    ),
    (
        "hn_branch_api",
        "2025-09-04T15:25",
        "fact",
        API,
        "git",
        "Branch names in the api repo follow feat/BILL-123-short-description, with the Jira key.",
    ),
    (
        "hn_branch_cli",
        "2025-10-11T20:40",
        "fact",
        CLI,
        "git",
        "In logslice, branches are just short descriptive names like fix-gzip-input; no ticket "
        "keys.",
    ),
    (
        "hn_release_merge",
        "2025-11-20T11:35",
        "preference",
        G,
        "git",
        "Release branches are the exception: they go into main with a real merge commit (--no-ff) "
        "so the release point stays visible in history.",
    ),
    (
        "hn_xsys",
        "2026-02-07T19:50",
        "decision",
        CLI,
        "dependencies",
        "The one allowed dependency in logslice is golang.org/x/sys, needed for terminal "
        "detection on Windows.",
    ),
    (
        "hn_dash_retries",
        "2025-12-17T16:05",
        "fact",
        WEB,
        "reliability",
        "The dashboard's API client retries a failed GET up to 3 times but never retries POST "
        "requests.",
    ),
    (
        "hn_fx_rates",
        "2025-10-09T11:55",
        "decision",
        API,
        "database",
        "Exchange rates are stored as NUMERIC(18,8), not as integer cents, because they need eight "
        "decimal places.",
    ),
    (
        "hn_dr_region",
        "2025-11-21T15:00",
        "fact",
        INFRA,
        "infra",
        "The disaster-recovery standby cluster runs in eu-central-1.",
    ),
    (
        "hn_priya_api",
        "2025-12-10T10:40",
        "fact",
        API,
        "team",
        "Priya's payments-platform team owns the API service.",
    ),
    (
        "hn_prettier",
        "2025-11-03T14:50",
        "preference",
        WEB,
        "style",
        "Dashboard code is formatted with Prettier, printWidth 100, single quotes.",
    ),
    (
        "hn_backup",
        "2025-10-01T09:25",
        "fact",
        INFRA,
        "database",
        "The nightly Postgres snapshot backup runs at 02:00 UTC.",
    ),
    (
        "hn_playwright",
        "2025-12-19T14:20",
        "fact",
        WEB,
        "testing",
        "End-to-end tests for the dashboard run with Playwright against the staging API.",
    ),
    (
        "hn_worker_toml",
        "2025-12-05T11:10",
        "fact",
        WORKER,
        "config",
        "The worker reads its queue URLs and concurrency from /etc/worker/worker.toml, mounted "
        "from a ConfigMap by the Helm chart.",
    ),
    (
        "hn_api_uvicorn",
        "2026-02-18T13:45",
        "fact",
        API,
        "performance",
        "The API runs 4 uvicorn workers per pod.",
    ),
    (
        "hn_enterprise_limit",
        "2025-11-07T16:30",
        "fact",
        API,
        "api-design",
        "Enterprise API keys are exempt from the standard rate limit and get 1000 requests per "
        "minute.",
    ),
    (
        "hn_dashboard_deploy",
        "2026-01-26T15:30",
        "fact",
        WEB,
        "deployment",
        "The dashboard is deployed to S3 and CloudFront by its GitHub Actions workflow on every "
        "merge to main.",
    ),
    # ---- theme members (recurring across memories, not duplicates of each other) ----
    (
        "t1a",
        "2025-09-15T16:40",
        "preference",
        G,
        "config",
        "Parse environment variables into typed values at startup and crash immediately if a "
        "required one is missing, instead of failing later deep inside a request.",
    ),
    (
        "t1b",
        "2025-11-11T10:30",
        "preference",
        G,
        "config",
        "No silent defaults for settings like database URLs or API keys; a missing value is an "
        "error, not localhost.",
    ),
    (
        "t1c",
        "2026-01-26T09:45",
        "preference",
        G,
        "python",
        "Run mypy in strict mode on every Python repo; the user treats type errors as build "
        "failures.",
    ),
    (
        "t1d",
        "2026-02-16T11:20",
        "decision",
        WEB,
        "config",
        "In the dashboard, env vars are read once through a zod schema in src/env.ts, so a missing "
        "VITE_API_URL fails the build.",
    ),
    (
        "t2a",
        "2025-08-28T14:50",
        "preference",
        G,
        "testing",
        "Never call time.sleep in a test to wait for something; inject a clock or poll with a "
        "deadline.",
    ),
    (
        "t2b",
        "2025-10-27T11:15",
        "preference",
        API,
        "testing",
        "Tests that use Faker must seed it per test so failures reproduce.",
    ),
    (
        "t2c",
        "2025-12-29T10:10",
        "fact",
        WORKER,
        "testing",
        "Worker tests must not make real HTTP calls; outbound requests are stubbed with respx.",
    ),
    (
        "t2d",
        "2026-03-13T15:55",
        "preference",
        G,
        "testing",
        "Tests must not depend on the order they run in; each test builds its own data instead of "
        "relying on rows another test created.",
    ),
    (
        "t3a",
        "2025-09-02T11:05",
        "decision",
        INFRA,
        "infra",
        "Use RDS for Postgres rather than running a database inside the cluster.",
    ),
    (
        "t3b",
        "2025-09-19T09:40",
        "decision",
        WORKER,
        "infra",
        "The worker uses SQS instead of a self-hosted RabbitMQ; the user doesn't want to operate "
        "a message broker.",
    ),
    (
        "t3c",
        "2025-11-26T14:35",
        "decision",
        INFRA,
        "observability",
        "Metrics and logs are shipped to Grafana Cloud rather than a self-hosted Prometheus and "
        "Loki; the user doesn't want to run them.",
    ),
    (
        "t3d",
        "2026-02-23T10:50",
        "decision",
        INFRA,
        "infra",
        "Prefer EKS managed node groups over self-managed EC2 Auto Scaling groups for the worker "
        "nodes.",
    ),
    (
        "t4a",
        "2025-09-09T15:15",
        "decision",
        API,
        "observability",
        "Every API log line carries the request_id, and the API returns it in the X-Request-ID "
        "header.",
    ),
    (
        "t4b",
        "2025-11-28T11:25",
        "decision",
        WORKER,
        "observability",
        "Worker jobs carry the W3C traceparent of the API request that enqueued them, so worker "
        "spans join the request's trace.",
    ),
    (
        "t5a",
        "2025-10-14T13:30",
        "decision",
        WEB,
        "dependencies",
        "Removed lodash from the dashboard; native array and object methods cover everything we "
        "used it for.",
    ),
    (
        "t5b",
        "2025-12-23T09:50",
        "preference",
        G,
        "dependencies",
        "Before adding a package, the user wants its maintenance status, install size and "
        "transitive dependencies checked.",
    ),
    (
        "t5c",
        "2026-03-06T14:40",
        "preference",
        G,
        "python",
        "Use dataclasses from the standard library instead of attrs for plain data holders.",
    ),
    (
        "t6a",
        "2025-10-07T10:55",
        "decision",
        API,
        "deployment",
        "Risky API changes ship behind a feature flag so they can be switched off without a "
        "deploy.",
    ),
    (
        "t6b",
        "2026-02-27T16:20",
        "preference",
        G,
        "git",
        "Each commit should be revertable on its own; don't mix a refactor with a behaviour "
        "change in one commit.",
    ),
    (
        "t7a",
        "2025-10-03T13:10",
        "decision",
        API,
        "security",
        "Card numbers and IBANs are masked by a logging filter before anything is written to the "
        "logs.",
    ),
    (
        "t7b",
        "2025-12-30T11:30",
        "decision",
        G,
        "security",
        "gitleaks runs as a pre-commit hook in every repo to stop credentials from being "
        "committed.",
    ),
    (
        "t7c",
        "2026-03-19T09:15",
        "decision",
        INFRA,
        "security",
        "Payment provider API keys are rotated every 90 days by a scheduled Lambda.",
    ),
    (
        "t8a",
        "2025-08-22T09:30",
        "preference",
        G,
        "tooling",
        "Every repo should have make targets for routine tasks (make dev, make test, make lint) so "
        "nobody has to remember the commands.",
    ),
    (
        "t8b",
        "2025-11-17T15:05",
        "procedure",
        API,
        "tooling",
        "`make seed` loads demo customers and invoices into the local database.",
    ),
    (
        "t8c",
        "2026-03-24T10:35",
        "decision",
        G,
        "tooling",
        "pre-commit runs ruff check and ruff format on every commit, so style fixes never reach "
        "review.",
    ),
    (
        "t9a",
        "2025-10-01T15:50",
        "decision",
        API,
        "docs",
        "Architecture decisions are recorded as short ADRs in docs/adr/, numbered and not edited "
        "after acceptance.",
    ),
    (
        "t9b",
        "2026-01-13T14:05",
        "decision",
        INFRA,
        "docs",
        "Each runbook lives in the infra repo under runbooks/, named after the alert that links "
        "to it.",
    ),
    (
        "t9c",
        "2026-03-25T11:45",
        "preference",
        G,
        "docs",
        "When a design choice is made in a session, the user wants a one-paragraph note of the "
        "reasoning in the PR description.",
    ),
    # ---- long episodic memories (gist compression) ----
    (
        "g4",
        "2025-09-24T11:20",
        "episode",
        API,
        "database",
        "Invoice search in the admin took four seconds for large customers. EXPLAIN ANALYZE on "
        "the staging snapshot showed a sequential scan over 9 million invoice rows because the "
        "status filter had no index. A partial index on invoices(customer_id) WHERE status = "
        "'open' brought it down to 40 ms. From now on, run EXPLAIN ANALYZE against the staging "
        "snapshot for every new query on the invoices table.",
    ),
    (
        "g5",
        "2025-10-22T12:30",
        "episode",
        INFRA,
        "ci",
        "CI jobs failed all morning with 'no space left on device' on the self-hosted runners. "
        "The Docker layer cache had grown to 180 GB because nothing ever cleaned it. Clearing it "
        "by hand got the queue moving again within twenty minutes. Decided to prune Docker images "
        "nightly on the CI runners with a cron job that keeps only the last week of layers.",
    ),
    (
        "g6",
        "2025-11-24T16:15",
        "episode",
        WEB,
        "performance",
        "Looked into why the dashboard's main bundle is 1.4 MB. The bundle analyzer showed "
        "moment.js with all its locales was almost a third of it, pulled in by the date picker and "
        "our own formatters. We replaced moment.js with date-fns and dropped the locales we don't "
        "ship; the bundle went down to 900 KB. The user wants new date code to use date-fns only.",
    ),
    (
        "g7",
        "2025-12-06T21:10",
        "episode",
        CLI,
        "performance",
        "A logslice user reported it taking minutes on a 2 GB access log. Profiling with pprof "
        "showed most of the time in regexp.Compile, because the filter pattern was compiled again "
        "for every line. Moving the compile out of the loop made it about 30 times faster. Rule "
        "for logslice: compile the filter regex once at startup and reuse it.",
    ),
    (
        "g8",
        "2025-10-31T14:25",
        "episode",
        API,
        "tooling",
        "Turned on Renovate for the api repo and it opened 46 pull requests in one day, most of "
        "them patch bumps of dev tools. CI was saturated and reviewers started ignoring the bot. "
        "Two genuine security fixes sat unmerged for a week in the noise. "
        "Configured Renovate to group minor and patch updates into one weekly PR, while major "
        "upgrades still get their own PRs.",
    ),
    (
        "g9",
        "2025-12-10T16:45",
        "episode",
        API,
        "database",
        "The 14:00 deploy dropped the invoices.legacy_ref column while pods on the previous "
        "version were still running, and those pods threw errors until the rollout finished. "
        "About 300 webhook calls failed and had to be replayed. The migration had "
        "passed review because it looked like routine cleanup. Agreed to do schema changes as "
        "expand/contract: add the new column, deploy code that uses it, and drop the old column "
        "only in a later release.",
    ),
    (
        "g10",
        "2025-11-08T09:35",
        "episode",
        INFRA,
        "oncall",
        "Got paged at 3 a.m. for QueueDepthHigh and there was no runbook, so it took 40 minutes "
        "to work out that the worker was stuck on a poisoned message. The alert had been added "
        "months earlier without any description. Once found, moving the message to the "
        "dead-letter queue took two minutes. Decided that every alert must link to a runbook "
        "that says what to check first and how to mitigate.",
    ),
    (
        "g11",
        "2025-09-18T13:40",
        "episode",
        API,
        "pdf",
        "Paired with Dana on rendering invoice PDFs. Headless Chrome gave perfect output but added "
        "300 MB to the image and took two seconds per invoice, and ReportLab meant rewriting every "
        "template by hand. WeasyPrint renders our existing HTML templates in about 200 ms. "
        "Decision: invoices are rendered with WeasyPrint from the HTML templates.",
    ),
    (
        "g12",
        "2026-01-09T10:55",
        "episode",
        API,
        "bug",
        "Australian customers got invoices dated the previous day. The PDF template formatted the "
        "UTC timestamp directly, so anything issued before 10:00 local time showed yesterday's "
        "date. Timestamps stay UTC in the database and in the API. The fix and the rule: render "
        "dates in the customer's time zone, only at the presentation layer (PDFs and emails).",
    ),
    (
        "g13",
        "2026-01-28T15:15",
        "episode",
        INFRA,
        "infra",
        "A cancelled Atlantis run left the Terraform state locked, and every plan after it failed "
        "with 'Error acquiring the state lock'. We checked the DynamoDB lock table and the "
        "Atlantis logs to make sure no apply was still running, then released the lock with the "
        "ID from the error message. The lock had blocked every infra PR for three hours. "
        "Only use terraform force-unlock after confirming that no "
        "apply is in progress.",
    ),
    (
        "g14",
        "2025-11-01T15:40",
        "episode",
        API,
        "security",
        "Stripe webhook signature checks started failing after we added a middleware that parses "
        "JSON bodies. The signature is computed over the exact bytes Stripe sent, and "
        "re-serialising the parsed JSON changed whitespace and key order. Moved the webhook route "
        "ahead of that middleware. Rule: verify webhook signatures on the raw request body, "
        "before any parsing.",
    ),
    (
        "g15",
        "2026-02-04T13:25",
        "episode",
        API,
        "docs",
        "A new developer, Lena, needed two full days to get the api running locally. The README "
        "still referred to config.yaml and Poetry, both long gone, and the seed script had "
        "been renamed. We rewrote the quickstart from a clean clone. Decided that the README "
        "quickstart runs in CI on every PR so it cannot go stale again.",
    ),
    # ---- ordinary, unrelated memories (background of a realistic vault) ----
    (
        "f1",
        "2025-08-08T10:20",
        "fact",
        API,
        "architecture",
        "The api repo's entry point is src/app/main.py, which builds the FastAPI app in "
        "create_app().",
    ),
    (
        "f2",
        "2025-08-18T11:35",
        "fact",
        API,
        "api-design",
        "Customer IDs in the API are prefixed strings: cus_ followed by a ULID.",
    ),
    (
        "f3",
        "2025-09-05T10:15",
        "fact",
        API,
        "api-design",
        "The invoices endpoint paginates with an opaque cursor, not with page numbers.",
    ),
    (
        "f4",
        "2025-10-02T16:30",
        "procedure",
        API,
        "tooling",
        "To regenerate the dashboard's API client, run make openapi in the api repo; it writes "
        "openapi.json.",
    ),
    (
        "f5",
        "2025-10-18T10:45",
        "fact",
        API,
        "deployment",
        "The API's /healthz endpoint doesn't touch the database; /readyz does.",
    ),
    (
        "f6",
        "2025-12-12T09:40",
        "fact",
        API,
        "billing",
        "VAT rates per country are in src/billing/tax_rates.py and are updated by hand every "
        "January.",
    ),
    (
        "f7",
        "2026-02-11T15:10",
        "decision",
        API,
        "database",
        "Soft-deleted customers keep their invoices: deleting a customer sets deleted_at instead "
        "of removing rows.",
    ),
    (
        "f8",
        "2026-03-17T14:25",
        "fact",
        API,
        "security",
        "The admin endpoints live under /internal and are only reachable through the VPN.",
    ),
    (
        "f9",
        "2025-11-15T11:00",
        "fact",
        API,
        "database",
        "Alembic migration files in the api repo are named with a sequence number and a slug, e.g. "
        "0031_add_credit_notes.",
    ),
    (
        "f10",
        "2026-01-02T10:30",
        "fact",
        API,
        "billing",
        "Credit notes are a separate resource from invoices and reference the original invoice id.",
    ),
    (
        "f11",
        "2025-08-25T09:50",
        "fact",
        WORKER,
        "architecture",
        "The worker's entry point is worker/main.py, which polls three SQS queues: invoices, "
        "emails and exports.",
    ),
    (
        "f12",
        "2025-10-12T14:15",
        "fact",
        WORKER,
        "email",
        "Invoice emails are sent through Postmark from the worker, using templates stored in "
        "Postmark.",
    ),
    (
        "f13",
        "2025-12-01T15:20",
        "procedure",
        WORKER,
        "reliability",
        "To replay dead-lettered jobs, run `python -m worker.tools.redrive --queue invoices` from "
        "a worker pod.",
    ),
    (
        "f14",
        "2026-02-06T11:40",
        "fact",
        WORKER,
        "storage",
        "Export jobs write CSV files to the S3 bucket acme-exports, which keeps them for 30 days.",
    ),
    (
        "f15",
        "2026-03-11T10:05",
        "fact",
        WORKER,
        "observability",
        "The worker exposes a /metrics endpoint that Grafana Agent scrapes.",
    ),
    (
        "f16",
        "2025-08-13T15:30",
        "fact",
        WEB,
        "frontend",
        "Charts in the dashboard are drawn with Recharts.",
    ),
    (
        "f17",
        "2025-09-03T14:05",
        "fact",
        WEB,
        "frontend",
        "The dashboard's routes are defined with React Router in src/routes.tsx.",
    ),
    (
        "f18",
        "2025-10-25T11:30",
        "preference",
        WEB,
        "frontend",
        "User wants dashboard components written as function components with hooks; no class "
        "components.",
    ),
    (
        "f19",
        "2025-11-29T10:00",
        "fact",
        WEB,
        "i18n",
        "Dashboard translations live in src/locales/{en,de,fr}.json and are loaded with i18next.",
    ),
    (
        "f20",
        "2026-01-23T09:20",
        "fact",
        WEB,
        "security",
        "The dashboard signs users in through Auth0 with the OAuth PKCE flow.",
    ),
    (
        "f21",
        "2026-02-21T13:35",
        "fact",
        WEB,
        "docs",
        "Storybook for the dashboard components is published on every merge to main.",
    ),
    (
        "f22",
        "2026-03-26T15:00",
        "decision",
        WEB,
        "frontend",
        "Data tables in the dashboard use TanStack Table with server-side sorting.",
    ),
    (
        "f23",
        "2025-08-15T14:40",
        "fact",
        INFRA,
        "infra",
        "The infra repo is organised as terraform/modules plus terraform/envs/staging and "
        "terraform/envs/prod.",
    ),
    (
        "f24",
        "2025-09-22T15:45",
        "fact",
        INFRA,
        "infra",
        "DNS for acme.io is managed in Route 53 from the infra repo.",
    ),
    (
        "f25",
        "2025-10-20T10:10",
        "fact",
        INFRA,
        "infra",
        "Helm charts for all services live in the infra repo under charts/.",
    ),
    (
        "f26",
        "2025-11-19T16:20",
        "fact",
        INFRA,
        "security",
        "The company VPN is Tailscale; its ACLs are defined in tailscale/acl.hujson in the infra "
        "repo.",
    ),
    (
        "f27",
        "2026-01-05T15:45",
        "fact",
        INFRA,
        "cost",
        "The monthly AWS bill is reviewed in the first infra sync of each month; the NAT gateway "
        "is the biggest surprise line.",
    ),
    (
        "f28",
        "2026-02-25T10:15",
        "fact",
        WEB,
        "deployment",
        "Hashed dashboard assets are cached for a year; index.html is served with no-cache.",
    ),
    (
        "f29",
        "2026-03-20T11:05",
        "fact",
        INFRA,
        "infra",
        "AWS accounts are split into acme-dev, acme-staging and acme-prod under one organisation.",
    ),
    (
        "f30",
        "2025-08-23T19:15",
        "fact",
        CLI,
        "features",
        "logslice reads gzip-compressed logs transparently when the file name ends in .gz.",
    ),
    (
        "f31",
        "2025-09-27T20:30",
        "fact",
        CLI,
        "features",
        "logslice's time filter accepts --since and --until in RFC 3339 or relative forms like 2h.",
    ),
    (
        "f32",
        "2025-11-01T10:45",
        "fact",
        CLI,
        "community",
        "logslice has about 40 stars; most issues come from people parsing nginx logs.",
    ),
    (
        "f33",
        "2026-01-17T19:25",
        "preference",
        CLI,
        "testing",
        "For logslice, the user wants table-driven tests with t.Run subtests.",
    ),
    (
        "f34",
        "2026-03-07T18:40",
        "fact",
        CLI,
        "ci",
        "logslice supports Linux, macOS and Windows, and CI runs the tests on all three.",
    ),
    (
        "f35",
        "2025-08-09T09:10",
        "fact",
        G,
        "about-user",
        "The user is a backend developer at Acme, mostly Python, and maintains logslice in Go on "
        "the side.",
    ),
    (
        "f36",
        "2025-08-29T16:35",
        "fact",
        G,
        "about-user",
        "The user's machine is a MacBook Pro (M2) running macOS, and the shell is zsh.",
    ),
    (
        "f37",
        "2025-09-12T13:20",
        "preference",
        G,
        "style",
        "Prefers British spelling in docs and comments ('behaviour', 'initialise').",
    ),
    (
        "f38",
        "2025-10-05T10:35",
        "fact",
        G,
        "about-user",
        "The user is in the Europe/Berlin time zone and usually works from 9 to 17.",
    ),
    (
        "f39",
        "2025-11-09T14:40",
        "preference",
        G,
        "style",
        "When showing SQL, the user wants keywords in upper case.",
    ),
    (
        "f40",
        "2025-12-13T17:10",
        "fact",
        G,
        "about-user",
        "The user is preparing a talk on idempotent job processing for PyCon DE.",
    ),
    (
        "f41",
        "2026-01-03T12:00",
        "fact",
        G,
        "about-user",
        "The user's GitHub handle is jdoe; work repositories are under the acme organisation.",
    ),
    (
        "f42",
        "2026-02-01T09:55",
        "preference",
        G,
        "communication",
        "In examples, the user likes realistic names (invoice, customer) rather than foo and bar.",
    ),
    (
        "f43",
        "2026-03-14T16:50",
        "preference",
        G,
        "communication",
        "The user prefers links to official documentation over blog posts.",
    ),
    (
        "f44",
        "2025-09-20T10:25",
        "fact",
        G,
        "about-user",
        "The user is learning Rust on weekends with the Rustlings exercises.",
    ),
    (
        "f45",
        "2025-10-26T16:05",
        "preference",
        G,
        "style",
        "For regular expressions, the user wants a short comment saying what each one matches.",
    ),
    (
        "f46",
        "2025-12-27T11:15",
        "fact",
        G,
        "tooling",
        "The user's dotfiles are in github.com/jdoe/dotfiles and managed with GNU stow.",
    ),
    (
        "f47",
        "2025-09-14T11:10",
        "fact",
        G,
        "observability",
        "Sentry projects are named acme-api, acme-worker and acme-dashboard.",
    ),
    (
        "f48",
        "2025-10-19T09:30",
        "fact",
        INFRA,
        "database",
        "The staging database is refreshed every Sunday from an anonymised production snapshot.",
    ),
    (
        "f49",
        "2025-11-23T13:50",
        "fact",
        API,
        "billing",
        "Invoice numbers are sequential per customer and formatted like INV-2025-000123.",
    ),
    (
        "f50",
        "2025-12-20T10:20",
        "fact",
        G,
        "team",
        "Customer support reaches engineering through the #billing-support Slack channel.",
    ),
    (
        "f51",
        "2026-01-11T14:35",
        "fact",
        WORKER,
        "billing",
        "Dunning emails go out 3, 7 and 14 days after an invoice becomes overdue.",
    ),
    (
        "f52",
        "2026-02-15T16:10",
        "fact",
        API,
        "billing",
        "The finance team pulls monthly revenue reports from the /internal/reports endpoint.",
    ),
    (
        "f53",
        "2026-03-04T09:25",
        "fact",
        API,
        "billing",
        "Stripe is the payment provider, and staging uses Stripe's test mode.",
    ),
    (
        "f54",
        "2025-08-17T13:05",
        "fact",
        API,
        "database",
        "The API uses SQLAlchemy 2.0 with async sessions.",
    ),
    (
        "f55",
        "2025-10-30T15:35",
        "decision",
        API,
        "architecture",
        "Background work that must survive a restart goes to the worker through SQS, never into "
        "FastAPI BackgroundTasks.",
    ),
    (
        "f56",
        "2025-11-30T19:00",
        "fact",
        G,
        "team",
        "Sprint planning is on Mondays at 10:00 Berlin time.",
    ),
    (
        "f57",
        "2026-01-24T11:50",
        "fact",
        WEB,
        "frontend",
        "The dashboard loads its feature flags from the API's /flags endpoint at startup.",
    ),
    (
        "f58",
        "2026-02-28T14:15",
        "fact",
        INFRA,
        "observability",
        "Grafana dashboards are defined as code with grafonnet in the infra repo.",
    ),
    (
        "f59",
        "2026-03-23T13:30",
        "decision",
        WEB,
        "frontend",
        "Dark mode in the dashboard uses CSS variables toggled by a data-theme attribute.",
    ),
    (
        "f60",
        "2025-09-07T18:20",
        "fact",
        CLI,
        "release",
        "logslice installs from Homebrew as jdoe/tap/logslice.",
    ),
    (
        "f61",
        "2025-12-26T10:50",
        "fact",
        WEB,
        "frontend",
        "The dashboard supports the last two versions of Chrome, Firefox, Safari and Edge.",
    ),
    (
        "f62",
        "2026-03-27T10:40",
        "fact",
        API,
        "api-design",
        "The API serves its OpenAPI docs at /docs on staging only; production turns them off.",
    ),
    (
        "f63",
        "2025-10-09T17:30",
        "preference",
        G,
        "tooling",
        "The user dislikes Jupyter notebooks for anything that must be rerun and prefers plain "
        "scripts.",
    ),
    (
        "f64",
        "2026-02-08T12:25",
        "fact",
        INFRA,
        "database",
        "The production RDS instance runs Postgres 16.",
    ),
]

# (members, distinct facts a merge must keep)
DUPLICATE_GROUPS: list[tuple[list[str], list[str]]] = [
    (
        ["d1a", "d1b", "d1c", "d1d", "d1e"],
        [
            "reason: sharing setup between test files was painful with unittest TestCase classes",
            "shared fixtures go in conftest.py",
            "teardown is done with yield inside the fixture",
        ],
    ),
    (
        ["d2a", "d2b", "d2c", "d2d", "d2e"],
        [
            "reason: git bisect is easier on a linear history",
            "push rebased branches with --force-with-lease, never plain --force",
        ],
    ),
    (
        ["d3a", "d3b", "d3c", "d3d", "d3e"],
        [
            "the compose db is mapped to local port 5433",
            "5433 avoids clashing with a system Postgres on 5432",
            "symptom: every test fails with connection refused",
        ],
    ),
    (
        ["d4a", "d4b", "d4c", "d4d", "d4e"],
        [
            "query keys come from the factory in src/api/keys.ts",
            "the store holds only UI state (open panels, filters)",
            "copying fetched data into the store caused stale invoice totals",
        ],
    ),
    (
        ["d5a", "d5b", "d5c", "d5d", "d5e", "d5f", "d5g", "d5h"],
        [
            "for a shell command, reply with just the command",
            "no closing summary of what was just done",
        ],
    ),
    (
        ["d6a", "d6b", "d6c", "d6d", "d6e"],
        [
            "dedupe by job id in the processed_jobs table",
            "a non-idempotent handler caused duplicate invoice emails",
            "redelivery happens when a job outlives the SQS visibility timeout",
        ],
    ),
    (
        ["d7a", "d7b", "d7c", "d7d", "d7e"],
        [
            "applies go through Atlantis ('atlantis apply' after approval)",
            "state lives in the S3 bucket acme-tf-state",
        ],
    ),
    (
        ["d8a", "d8b", "d8c", "d8d", "d8e"],
        [
            "the user rejected cobra; use the standard flag package",
            "reason: keep the static binary small for the Homebrew formula",
        ],
    ),
    (
        ["s1a", "s1b", "s1c"],
        ["ideally under 400 changed lines", "reason: reviewers at Acme skip giant diffs"],
    ),
    (["s2a", "s2b"], ["fields: type, title, detail"]),
    (["s3a", "s3b"], ["a .module.css file next to each component"]),
    (["s5a", "s5b", "s5c"], ["every log line includes the job_id"]),
    (["s6a", "s6b"], []),
    (
        ["s7a", "s7b", "s7c", "s7d"],
        [
            "reason: float rounding errors in the old billing system",
            "the currency code is stored alongside the amount",
            "column type bigint",
        ],
    ),
    (["s8a", "s8b", "s8c"], ["subject under 50 characters", "the why goes in the body"]),
    (["s9a", "s9b"], ["goreleaser also updates the Homebrew tap"]),
    (["s10a", "s10b", "s10c"], []),
    (["s11a", "s11b"], []),
    (["s12a", "s12b", "s12c"], ["handlers live in src/mocks/handlers.ts"]),
    (["s13a", "s13b"], ["after the last attempt the job goes to the dead-letter queue"]),
    (["s14a", "s14b", "s14c"], ["referenced through ExternalSecret resources"]),
    (["s15a", "s15b"], ["no pytest-rerunfailures"]),
    (["s16a", "s16b"], []),
]

# (older, newer, subject, explicit): explicit = the newer text itself says it is a change.
# Chains A->B->C list both steps and the transitive pair (A, C).
CONTRADICTIONS: list[tuple[str, str, str, bool]] = [
    ("c1a", "c1b", "how the API is deployed", True),
    ("c1b", "c1c", "how the API is deployed", False),
    ("c1a", "c1c", "how the API is deployed", False),
    ("s16a", "c2new", "production API port", True),
    ("s16b", "c2new", "production API port", True),
    ("c3a", "c3b", "Python version of the api repo", True),
    ("c3b", "c3c", "Python version of the api repo", False),
    ("c3a", "c3c", "Python version of the api repo", False),
    ("c4a", "c4b", "Python dependency manager", False),
    ("c4b", "c4c", "Python dependency manager", True),
    ("c4a", "c4c", "Python dependency manager", True),
    ("c5a", "c5b", "dashboard unit test runner", True),
    ("c6a", "c6b", "payment provider client timeout", True),
    ("c7a", "c7b", "owner of the worker service", False),
    ("c8a", "c8b", "table naming convention in the api schema", True),
    ("c9a", "c9b", "dashboard client state library", False),
    ("c10a", "c10b", "Kubernetes version of the production cluster", True),
    ("c10b", "c10c", "Kubernetes version of the production cluster", False),
    ("c10a", "c10c", "Kubernetes version of the production cluster", False),
    ("c11a", "c11b", "Python formatter and import sorter", True),
    ("c12a", "c12b", "where the API reads its configuration", True),
    ("c14a", "c14b", "worker processes per pod", True),
    ("c15a", "c15b", "on-call paging tool", True),
    ("c16a", "c16b", "HTTP client for the API's outbound calls", False),
    ("c20a", "c20b", "time of the nightly reconciliation job", False),
    ("c21a", "c21b", "code owner of src/billing", False),
    ("c22a", "c22b", "the user's editor", True),
    ("c24a", "c24b", "public API rate limit per key", False),
]

HARD_NEGATIVES: list[tuple[list[str], str]] = [
    (
        ["c2new", "hn_staging_port"],
        "production port (8080) and staging port (8081) of the same API are both true",
    ),
    (
        ["c3c", "hn_worker_py311"],
        "the API is on Python 3.12 and the worker on 3.11: different services",
    ),
    (
        ["c6b", "hn_worker_job_timeout"],
        "the payment client's HTTP timeout and a worker job's time limit are different settings",
    ),
    (["hn_branch_api", "hn_branch_cli"], "two projects with different branch naming conventions"),
    (
        ["d2a", "hn_release_merge"],
        "a preference (rebase, linear history) and its narrower exception (release branches)",
    ),
    (
        ["d8a", "hn_xsys"],
        "a preference (standard library only) and its narrower exception (golang.org/x/sys)",
    ),
    (
        ["s13a", "hn_dash_retries"],
        "similar wording about retries, different subjects (worker jobs vs dashboard GETs)",
    ),
    (["s7a", "hn_fx_rates"], "money in integer cents and exchange rates in NUMERIC(18,8) coexist"),
    (
        ["s6a", "hn_dr_region"],
        "the production cluster and the disaster-recovery cluster are in different regions",
    ),
    (
        ["c7b", "hn_priya_api"],
        "Marco's team owns the worker, Priya's team owns the API: different services",
    ),
    (
        ["c7a", "hn_priya_api"],
        "Priya owning the worker (stale) is not the same fact as Priya owning the API",
    ),
    (
        ["c11b", "hn_prettier"],
        "formatter settings for Python (ruff) and TypeScript (Prettier), same line length",
    ),
    (
        ["c20a", "hn_backup"],
        "the reconciliation job and the database backup both at 02:00 UTC: different jobs",
    ),
    (
        ["c20b", "hn_backup"],
        "the reconciliation job moved to 04:30; the backup still runs at 02:00",
    ),
    (["c5b", "hn_playwright"], "Vitest for unit tests and Playwright for end-to-end tests coexist"),
    (
        ["c12b", "hn_worker_toml"],
        "the API takes config from env vars, the worker from a TOML file: different services",
    ),
    (
        ["c14a", "hn_api_uvicorn"],
        "4 worker processes per pod and 4 uvicorn workers per API pod: different services",
    ),
    (
        ["c14b", "hn_api_uvicorn"],
        "the worker runs 8 processes per pod, the API 4 uvicorn workers: different services",
    ),
    (
        ["c24b", "hn_enterprise_limit"],
        "the standard rate limit and the enterprise exception coexist",
    ),
    (
        ["c1c", "hn_dashboard_deploy"],
        "similar wording (GitHub Actions deploy on merge), different services",
    ),
    (["s10a", "g12"], "the API returns UTC; PDFs and emails render in the customer's time zone"),
    (["t7b", "t8c"], "two different pre-commit hooks (gitleaks, ruff); similar wording"),
    (["d6a", "f40"], "a talk about idempotent jobs is not the worker idempotency rule"),
    (
        ["s6a", "c10a"],
        "similar wording about the production cluster: its region and its Kubernetes version",
    ),
    (["s6b", "c10c"], "similar wording about prod EKS: its region and its Kubernetes version"),
]

# (members, pattern a good generaliser would write)
THEMES: list[tuple[list[str], str]] = [
    (
        ["c12b", "t1a", "t1b", "t1c", "t1d"],
        "Prefers explicit, typed configuration that fails fast: settings are parsed into typed "
        "objects at startup, required values have no silent defaults, and type checking is "
        "strict.",
    ),
    (
        ["s15a", "t2a", "t2b", "t2c", "t2d"],
        "Wants deterministic tests: no real time, unseeded randomness, network or test-order "
        "dependence, and flakiness is fixed at its cause instead of retried.",
    ),
    (
        ["t3a", "t3b", "t3c", "t3d"],
        "Prefers managed cloud services over running infrastructure themselves (RDS, SQS, "
        "Grafana Cloud, managed node groups).",
    ),
    (
        ["s5c", "t4a", "t4b", "g10"],
        "Treats observability as part of done: structured logs with correlation ids, traces "
        "across services, and alerts that link to runbooks.",
    ),
    (
        ["d8a", "t5a", "t5b", "t5c", "g6"],
        "Keeps dependencies minimal: prefers the standard library or the platform, and weighs "
        "every new package by size and maintenance.",
    ),
    (
        ["s1a", "t6a", "t6b", "g9"],
        "Prefers small, incremental, reversible changes: small PRs, revertable commits, feature "
        "flags and expand/contract migrations.",
    ),
    (
        ["s14a", "t7a", "t7b", "t7c"],
        "Careful with secrets and sensitive data: nothing secret in code, config or logs, with "
        "scanning and key rotation automated.",
    ),
    (
        ["t8a", "t8b", "t8c", "g8"],
        "Automates repetitive chores: a make target per routine task, pre-commit hooks, and "
        "bots for dependency updates tuned to stay manageable.",
    ),
    (
        ["t9a", "t9b", "t9c", "g15"],
        "Writes decisions and operating knowledge down where people will find them: ADRs, "
        "runbooks next to alerts, design notes in PRs, a quickstart that is tested.",
    ),
]

GIST: list[tuple[str, str]] = [
    ("c1b", "moved the API off Heroku to Fly.io"),
    ("c6b", "lowered the payment client timeout to 10 seconds"),
    ("c10b", "Kubernetes 1.29"),
    ("c14b", "8 processes per pod"),
    ("g4", "EXPLAIN ANALYZE"),
    ("g5", "prune Docker images nightly on the CI runners"),
    ("g6", "replaced moment.js with date-fns"),
    ("g7", "compile the filter regex once"),
    ("g8", "group minor and patch updates into one weekly PR"),
    ("g9", "expand/contract"),
    ("g10", "every alert must link to a runbook"),
    ("g11", "WeasyPrint"),
    ("g12", "render dates in the customer's time zone"),
    ("g13", "terraform force-unlock"),
    ("g14", "verify webhook signatures on the raw request body"),
    ("g15", "quickstart runs in CI"),
]

D1 = ["d1a", "d1b", "d1c", "d1d", "d1e"]
D2 = ["d2a", "d2b", "d2c", "d2d", "d2e"]
D3 = ["d3a", "d3b", "d3c", "d3d", "d3e"]
D4 = ["d4a", "d4b", "d4c", "d4d", "d4e"]
D5 = ["d5a", "d5b", "d5c", "d5d", "d5e", "d5f", "d5g", "d5h"]
D6 = ["d6a", "d6b", "d6c", "d6d", "d6e"]
D7 = ["d7a", "d7b", "d7c", "d7d", "d7e"]
D8 = ["d8a", "d8b", "d8c", "d8d", "d8e"]

# (query, relevant now, stale: superseded, must not be injected)
QUERIES: list[tuple[str, list[str], list[str]]] = [
    ("How is the API deployed?", ["c1c"], ["c1a", "c1b"]),
    ("What port does the production API listen on?", ["c2new"], ["s16a", "s16b"]),
    ("Which Python version does the API use?", ["c3c"], ["c3a", "c3b"]),
    ("What do we use to manage Python dependencies and lock files?", ["c4c"], ["c4a", "c4b"]),
    ("Which test runner do the dashboard unit tests use?", ["c5b"], ["c5a"]),
    ("What timeout does the payment provider client have?", ["c6b"], ["c6a"]),
    ("Who do I contact about a worker incident?", ["c7b"], ["c7a"]),
    ("Should a new database table name be singular or plural?", ["c8b"], ["c8a"]),
    ("Where does the dashboard keep its client-side state?", ["c9b"], ["c9a"]),
    ("What Kubernetes version is production on?", ["c10c"], ["c10a", "c10b"]),
    ("How should I format Python code and sort imports?", ["c11b"], ["c11a"]),
    ("Where does the API get its configuration from?", ["c12b"], ["c12a"]),
    ("How many processes does each worker pod run?", ["c14b"], ["c14a"]),
    ("How do alerts reach the on-call engineer?", ["c15b"], ["c15a"]),
    ("Which HTTP client should API code use for calls to other services?", ["c16b"], ["c16a"]),
    ("When does the nightly reconciliation job run?", ["c20b"], ["c20a"]),
    ("Who should review my change to the billing module?", ["c21b"], ["c21a"]),
    ("What editor does the user work in?", ["c22b"], ["c22a"]),
    ("What is the rate limit of the public API?", ["c24b", "hn_enterprise_limit"], ["c24a"]),
    ("Was the API ever on Heroku, and where does it run now?", ["c1c"], ["c1a", "c1b"]),
    ("Is the prod cluster still on 1.29?", ["c10c"], ["c10a", "c10b"]),
    ("How should I set up shared test state in pytest?", D1, []),
    ("My branch is behind main: should I merge main in or rebase?", D2, []),
    ("All API tests fail with connection refused. What's wrong?", D3, []),
    ("Where should fetched API data live in the dashboard?", D4, []),
    ("How long and detailed should my answers be?", D5, []),
    ("What happens if the worker receives the same job twice?", D6, []),
    ("How do I apply a Terraform change to the infrastructure?", D7, []),
    ("Can I add a third-party Go module to logslice?", D8 + ["hn_xsys"], []),
    ("How should money amounts be stored in the database?", ["s7a", "s7b", "s7c", "s7d"], []),
    ("What format do the API's error responses use?", ["s2a", "s2b"], []),
    ("How do I cut a logslice release?", ["s9a", "s9b"], []),
    ("How do secrets get into the Kubernetes pods?", ["s14a", "s14b", "s14c"], []),
    ("How do dashboard tests mock the API?", ["s12a", "s12b", "s12c"], []),
    ("What is the worker's retry policy for failed jobs?", ["s13a", "s13b"], []),
    ("What commit message style does the user want?", ["s8a", "s8b", "s8c"], []),
    (
        "How does the user like application configuration to be handled?",
        ["c12b", "t1a", "t1b", "t1c", "t1d"],
        ["c12a"],
    ),
    (
        "What does the user expect from tests regarding flakiness and determinism?",
        ["s15a", "s15b", "t2a", "t2b", "t2c", "t2d"],
        [],
    ),
    ("Should we run this ourselves or use a managed service?", ["t3a", "t3b", "t3c", "t3d"], []),
    (
        "What logging and tracing conventions do we follow?",
        ["s5a", "s5b", "s5c", "t4a", "t4b", "g10"],
        [],
    ),
    ("Is it fine to add a new dependency for this?", ["d8a", "t5a", "t5b", "t5c", "g6"], []),
    ("How should I roll out a risky schema change?", ["g9", "t6a"], []),
    (
        "How do we keep secrets out of code and logs?",
        ["s14a", "s14b", "s14c", "t7a", "t7b", "t7c"],
        [],
    ),
    ("Which make targets and automation do our repos have?", ["t8a", "t8b", "t8c", "g8"], []),
    ("Where do we write down decisions and runbooks?", ["t9a", "t9b", "t9c", "g10"], []),
    ("What port does the staging API use?", ["hn_staging_port"], []),
    ("Which Python version does the worker run on?", ["hn_worker_py311"], []),
    ("Which AWS region is the production cluster in?", ["s6a", "s6b"], []),
    ("The Terraform state is locked after a cancelled run. What do I do?", ["g13"], []),
    ("How should dates be shown on invoices for customers abroad?", ["g12"], []),
    ("How are invoice PDFs rendered?", ["g11"], []),
    ("Why would Stripe webhook signature checks fail?", ["g14"], []),
    ("Can I use a merge commit when merging a release branch?", ["hn_release_merge"], []),
    ("How are exchange rates stored?", ["hn_fx_rates"], []),
]


def build() -> dict[str, object]:
    ordered = sorted(MEMORIES, key=lambda row: (row[1], row[0]))
    ids = {row[0]: f"m{n:03d}" for n, row in enumerate(ordered, start=1)}
    memories = [
        {
            "id": ids[key],
            "created": f"{created}:00Z",
            "kind": kind,
            "project": project,
            "topic": topic,
            "text": text,
        }
        for key, created, kind, project, topic, text in ordered
    ]
    return {
        "about": (
            "Hand-written developer memories for benchmarking consolidation (merge, "
            "contradiction, gist, patterns). Written for memory-vault; see "
            "consolidation_set.md."
        ),
        "memories": memories,
        "duplicate_groups": [
            {"members": [ids[k] for k in members], "distinct_facts": facts}
            for members, facts in DUPLICATE_GROUPS
        ],
        "contradictions": [
            {"older": ids[o], "newer": ids[n], "subject": s, "explicit": e}
            for o, n, s, e in CONTRADICTIONS
        ],
        "hard_negatives": [
            {"members": [ids[k] for k in members], "why": why} for members, why in HARD_NEGATIVES
        ],
        "themes": [{"members": [ids[k] for k in members], "pattern": p} for members, p in THEMES],
        "gist": [{"id": ids[k], "gist_must_keep": keep} for k, keep in GIST],
        "queries": [
            {"query": q, "relevant": [ids[k] for k in rel], "stale": [ids[k] for k in stale]}
            for q, rel, stale in QUERIES
        ],
    }


def main() -> None:
    keys = [row[0] for row in MEMORIES]
    assert len(keys) == len(set(keys)), "duplicate key"
    out = Path(__file__).with_name("consolidation_set.json")
    out.write_text(json.dumps(build(), indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {out} ({len(MEMORIES)} memories)")


if __name__ == "__main__":
    main()
