"""Generated vaults for the scale benchmark: N memory files written directly
(no index, no model), in parallel, deterministic for a given N.

Realistic shape: many projects, each with its own vocabulary and topic
folders, sessions of a few to thirty memories, lengths from one sentence to
past one chunk, wikilinks to earlier memories of the same project, 5% archived.
Writes only files; the benchmark indexes them through the real sync path.
"""

from __future__ import annotations

import random
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, replace
from datetime import timedelta
from pathlib import Path

from memory.service import MemoryService
from vault import frontmatter
from vault.clock import format_time, parse_time
from vault.layout import Vault

START = parse_time("2024-01-01T00:00:00Z")
PART = 20_000  # memories per worker task
COMMON = (
    "the a we it is was to of and in for on with when after before because so "
    "not always never should must use uses used fix fixed bug test tests run "
    "build deploy release review merge branch config setting value default "
    "error warning log timeout retry cache queue worker service api client "
    "server database table index query schema migration script file folder "
    "user team decided prefer prefers avoid note remember later today again"
).split()
KINDS = ("fact", "decision", "preference", "procedure", "event")
TOPICS_PER_PROJECT = 8
# Plain YAML written by hand: every value here is a safe plain scalar, and going
# through frontmatter.render (which checks each value) triples generation time.
FRONTMATTER = (
    "---\nid: {id}\ncreated: {when}\nlast_access: {when}\nstability: {stability}\n"
    "tier: episodic\nkind: {kind}\ntopic: {topic}\ntags: [{tag}]\nproject: {project}\n"
    "session: {session}\nseq: {seq}\nrecalls: {recalls}\nlinks: [{links}]\n---\n{body}\n"
)
SYLLABLES = "ka lo mi ne ru ta shi vo ze pa qui den tor lin gar mos bel fen har jot".split()


@dataclass(frozen=True)
class Shape:
    memories: int
    projects: int
    seed: int = 29
    longest: int = 600  # words in a body at most (tests pass a few: the model's cost)


def shape_for(memories: int) -> Shape:
    return Shape(memories, max(8, memories // 5000))


def pseudo_word(rng: random.Random) -> str:
    return "".join(rng.choice(SYLLABLES) for _ in range(rng.randint(2, 4)))


def project_vocabulary(shape: Shape, project: int) -> tuple[str, list[str], list[str]]:
    """(name, topic names, words) of one project, the same in every worker."""
    rng = random.Random(shape.seed * 1_000_003 + project)
    name = f"{pseudo_word(rng)}-{project:04d}"
    topics = [pseudo_word(rng) for _ in range(TOPICS_PER_PROJECT)]
    words = [pseudo_word(rng) for _ in range(150)]
    return name, topics, words


def body_words(
    rng: random.Random, words: list[str], topic_words: list[str], longest: int = 600
) -> str:
    """A body of 8 to `longest` words (median ~45): mostly common words, a share of
    the project's own terms and of the topic's."""
    length = min(longest, max(8, int(rng.lognormvariate(3.8, 0.7))))
    chosen = []
    for _ in range(length):
        roll = rng.random()
        pool = COMMON if roll < 0.55 else topic_words if roll < 0.8 else words
        chosen.append(rng.choice(pool))
    sentences = [" ".join(chosen[i : i + 12]) for i in range(0, len(chosen), 12)]
    return ". ".join(s.capitalize() for s in sentences) + "."


def memory_path(vault: Vault, number: int, project: str, topic: str, archived: bool) -> Path:
    folder = vault.archive_dir if archived else vault.memories_dir
    return folder / project / topic / f"m{number:07d}.md"


def plan(shape: Shape, number: int) -> tuple[int, int, int]:
    """(project, topic, session) of memory `number`: sessions of 1-30 memories,
    each in one project, consecutive numbers."""
    session = number // 16
    rng = random.Random(shape.seed * 7_919 + session)
    return rng.randrange(shape.projects), rng.randrange(TOPICS_PER_PROJECT), session


def write_part(root: str, shape: Shape, first: int, last: int) -> int:
    vault = Vault(Path(root))
    vocabularies = {}
    made: set[Path] = set()
    for number in range(first, last):
        project, topic, session = plan(shape, number)
        if project not in vocabularies:
            vocabularies[project] = project_vocabulary(shape, project)
        name, topics, words = vocabularies[project]
        rng = random.Random(shape.seed * 104_729 + number)
        topic_words = words[topic * 15 : topic * 15 + 15]
        archived = rng.random() < 0.05
        path = memory_path(vault, number, name, topics[topic], archived)
        if path.parent not in made:
            path.parent.mkdir(parents=True, exist_ok=True)
            made.add(path.parent)
        when = format_time(START + timedelta(minutes=number * 3))
        links = ", ".join(
            f'"[[m{rng.randrange(number):07d}]]"'
            for _ in range(rng.choice((0, 0, 1, 2)) * (number > 0))
        )
        text = FRONTMATTER.format(
            id=f"m{number:07d}", when=when, stability=round(rng.uniform(3, 60), 1),
            kind=rng.choice(KINDS), topic=topics[topic], tag=rng.choice(words), project=name,
            session=f"s{session:06d}", seq=number % 16 + 1, recalls=rng.randint(0, 5),
            links=links, body=body_words(rng, words, topic_words, shape.longest),
        )  # fmt: skip
        path.write_text(text, encoding="utf-8")
    return last - first


def generate(root: Path, memories: int, workers: int = 2, longest: int = 600) -> Vault:
    """Write a vault of `memories` files under `root` (made by `vault init`'s code),
    bodies of at most `longest` words."""
    vault = Vault(root)
    MemoryService.init_vault(vault)
    shape = replace(shape_for(memories), longest=longest)
    parts = [(str(root), shape, a, min(a + PART, memories)) for a in range(0, memories, PART)]
    if workers <= 1 or len(parts) == 1:
        for part in parts:
            write_part(*part)
        return vault
    with ProcessPoolExecutor(workers) as pool:
        list(pool.map(write_part, *zip(*parts, strict=True)))
    return vault


def query_texts(vault: Vault, count: int, seed: int = 5) -> list[str]:
    """Queries as a person would type them: a few words of a random memory."""
    shape_rng = random.Random(seed)
    files = sorted(vault.memories_dir.glob("*/*/*.md"))
    queries = []
    for path in shape_rng.sample(files, min(count, len(files))):
        body = frontmatter.parse(path.read_text(encoding="utf-8")).body.split()
        start = shape_rng.randrange(max(1, len(body) - 6))
        queries.append(" ".join(body[start : start + shape_rng.randint(3, 6)]))
    return queries
