"""Filing: TF-IDF centroid topics learnt from the memories a person filed."""

from __future__ import annotations

import shutil

import pytest

from memory.recall.ranking import RecallOptions
from memory.service import MemoryService

pytestmark = pytest.mark.model

LABELLED = {
    "testing": (
        "Use pytest fixtures instead of unittest setUp and tearDown methods.",
        "The flaky checkout test slept for a second; replaced the sleep with an injected clock.",
        "Run the test suite with pytest -x so the first failing test stops the run.",
        "Mock the payment gateway in unit tests; only the nightly job calls the sandbox.",
    ),
    "database": (
        "Production Postgres ran out of connections; PgBouncer now pools them.",
        "Never edit an Alembic migration that already ran on production; write a new one.",
        "Add an index on orders.customer_id; the customer page query did a sequential scan.",
        "Keep the SQLAlchemy connection pool at five connections per worker.",
    ),
    "deployment": (
        "Copy requirements.txt before the source in the Dockerfile so the pip layer is cached.",
        "The Kubernetes liveness probe killed pods during slow startup; added a startupProbe.",
        "Deploys go out through the GitHub Actions workflow, never by hand from a laptop.",
        "Roll back a bad release with helm rollback to the previous revision.",
    ),
    "frontend": (
        "Server state in the React app goes through TanStack Query, not Redux.",
        "Use CSS grid for the dashboard layout and flexbox only inside cards.",
        "Components are function components with hooks; no new class components.",
        "The sidebar overflowed because a flex child lacked min-width: 0.",
    ),
}
NEW = (
    ("testing", "Parametrize the pytest test instead of copying it for each input."),
    ("testing", "Unit tests must not sleep; the flaky tests all waited on real time."),
    ("database", "The Postgres migration that added a column locked the orders table."),
    ("database", "Slow query on the customer table: check the index and the connection pool."),
    ("deployment", "The Docker image for the release is built by the GitHub Actions workflow."),
    ("deployment", "Kubernetes pods restart when the probe fails; check the deploy config."),
    ("frontend", "Move the fetched data out of Redux and into a React Query hook."),
    ("frontend", "The card layout breaks on small screens: fix the CSS grid and flexbox."),
    ("testing", "Fixtures for the test database go in conftest.py, shared by every test."),
    ("frontend", "Dialogs and other UI state stay in React component state."),
)


def label_all(service: MemoryService) -> None:
    for topic, texts in LABELLED.items():
        for text in texts:
            service.jot(text, topic=topic)


def test_new_memories_are_filed_under_the_right_topic(service: MemoryService) -> None:
    label_all(service)
    right = 0
    for topic, text in NEW:
        record = service.show(service.jot(text).id)[0]
        assert record.filed in ("auto", "")
        right += record.topic == topic
    assert right >= 8, f"{right} of 10 filed correctly"
    counts = {c.topic: (c.labelled, c.auto) for c in service.topics()}
    assert {t: counts[t][0] for t in LABELLED} == dict.fromkeys(LABELLED, 4)
    assert sum(auto for _, auto in counts.values()) >= 8


def test_a_memory_far_from_every_topic_stays_unfiled(service: MemoryService) -> None:
    label_all(service)
    record = service.show(service.jot("Lunch on Friday is at the Thai place near the office.").id)[
        0
    ]
    assert (record.topic, record.filed) == ("", "")


def test_sweep_refiles_auto_topics_when_labels_change_and_never_touches_a_persons(
    service: MemoryService,
) -> None:
    service.jot("Run the pytest suite with -x to stop at the first failure.", topic="testing")
    service.jot("Postgres connections are pooled by PgBouncer.", topic="database")
    mine = service.jot("Helm rollback returns the cluster to the previous release.", topic="ops")
    auto = service.jot("Kubernetes deploys roll back with helm when the release fails.")
    assert service.show(auto.id)[0].topic == "ops"
    # The person files a better example under a new topic: a sweep refiles.
    service.jot("Kubernetes deploys and helm releases belong to deployment.", topic="deployment")
    report = service.sweep_topics()
    assert report.filed == {auto.id: "deployment"}
    assert service.show(auto.id)[0].topic == "deployment"
    assert service.show(mine.id)[0].topic == "ops"
    assert service.sweep_topics().filed == {}  # settled


def test_the_topic_model_is_derived_state_rebuilt_after_deleting_the_index(
    service: MemoryService,
) -> None:
    label_all(service)
    service.jot(NEW[1][1])  # a memory to file: the model is fitted and saved
    model = service.vault.index_dir / "topics.npz"
    assert model.is_file()
    service.index.close()
    shutil.rmtree(service.vault.index_dir)
    service.filer._model = None
    service.sync()  # what the next read does: the index comes back
    record = service.show(service.jot(NEW[0][1]).id)[0]
    assert record.topic == "testing"  # the model came back to file it
    assert model.is_file()


def test_an_edit_of_a_filed_memory_leaves_the_topic_model_alone(
    service: MemoryService,
) -> None:
    """The model is refitted when a memory needs a topic, not at every edit of a filed
    one (a refit reads every labelled text: seconds on a large vault, per edit)."""
    label_all(service)
    filed = service.jot(NEW[0][1])  # needs a topic: the model is fitted and saved
    model = service.vault.index_dir / "topics.npz"
    saved = model.read_bytes()
    path = service.vault.locate(label_all_first(service))
    path.write_text(path.read_text(encoding="utf-8") + "Run it with -x -q.\n", encoding="utf-8")
    assert service.sync().reembedded == [path.stem]
    assert model.read_bytes() == saved
    assert service.show(filed.id)[0].topic == "testing"
    assert service.show(service.jot(NEW[2][1]).id)[0].topic == "database"  # refitted now
    assert model.read_bytes() != saved


def label_all_first(service: MemoryService) -> str:
    """The id of the first memory a person filed under "testing"."""
    text = LABELLED["testing"][0]
    return next(r.id for r in service.index.rows() if service.index.body(r.id).strip() == text)


def test_recall_excludes_a_topic_and_boosts_a_hinted_one(service: MemoryService) -> None:
    testing = service.jot(
        "Pool the test database connections in a session fixture.", topic="testing"
    )
    database = service.jot("Pool the Postgres connections with PgBouncer.", topic="database")
    query = "how do we pool database connections?"
    peek = RecallOptions(reinforce=False)
    both = [h.id for h in service.recall(query, peek)]
    assert set(both) == {testing.id, database.id}
    excluded = service.recall(query, RecallOptions(reinforce=False, exclude_topic="database"))
    assert [h.id for h in excluded] == [testing.id]
    plain = {h.id: h.score for h in service.recall(query, peek)}
    hinted = service.recall(query, RecallOptions(reinforce=False, topic_hint="testing"))
    assert hinted[0].id == testing.id
    assert {h.id: h.score for h in hinted}[testing.id] == pytest.approx(plain[testing.id] * 1.2)
