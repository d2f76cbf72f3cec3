"""Loading part of a suite (`--limit`, `--items`) reads only the item files it needs.

A suite whose later files are broken still loads its first items; a full load still
reports every broken file with its position. The part holds the same items, in the
same order, as a full load followed by `select`.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml

from duplexbench.items._action_suite import load_action_suite
from duplexbench.items._errors import ItemError
from duplexbench.items._load import item_checksum
from duplexbench.items._suite import load_suite
from duplexbench.suites._package import resolve_suite
from support.fixtures import FIXTURES

BROKEN_YAML = "id: broken\nuser: [unclosed\n"


def fixture_files() -> list[Path]:
    return sorted(p for p in FIXTURES.glob("*.yaml") if p.name != "suite.yaml")


def suite_with_broken_tail(tmp_path: Path, keep: int) -> Path:
    """A suite folder (manifest with `items`) whose first `keep` files are good items
    and whose later files are invalid YAML."""
    folder = tmp_path / "suite"
    folder.mkdir()
    good = fixture_files()[:keep]
    for path in good:
        shutil.copy(path, folder / path.name)
    (folder / "zz-broken.yaml").write_text(BROKEN_YAML)
    (folder / "zz-not-a-mapping.yaml").write_text("- 1\n- 2\n")
    names = [p.name for p in good] + ["zz-broken.yaml", "zz-not-a-mapping.yaml"]
    (folder / "suite.yaml").write_text(yaml.safe_dump({"name": "lazy", "items": names}))
    return folder


def test_limit_reads_only_the_first_items(tmp_path: Path) -> None:
    folder = suite_with_broken_tail(tmp_path, keep=2)
    first = fixture_files()[:2]
    one = load_suite(folder, limit=1)
    assert [i.id for i in one.items] == [yaml.safe_load(first[0].read_text())["id"]]
    assert one.sources == {one.items[0].id: folder / first[0].name}
    assert len(load_suite(folder, limit=2).items) == 2
    with pytest.raises(ItemError) as exc:  # the third file is read now
        load_suite(folder, limit=3)
    assert [p.file for p in exc.value.problems] == [str(folder / "zz-broken.yaml")]


def test_a_full_load_still_names_every_broken_file_with_its_position(tmp_path: Path) -> None:
    folder = suite_with_broken_tail(tmp_path, keep=1)
    with pytest.raises(ItemError) as exc:
        load_suite(folder)
    problems = {p.file: p for p in exc.value.problems}
    assert set(problems) == {str(folder / "zz-broken.yaml"), str(folder / "zz-not-a-mapping.yaml")}
    broken = problems[str(folder / "zz-broken.yaml")]
    assert broken.path.startswith("line ") and "invalid YAML" in broken.message


def test_items_read_the_file_named_after_the_id_first(tmp_path: Path) -> None:
    folder = suite_with_broken_tail(tmp_path, keep=3)
    wanted = [fixture_files()[2].stem, fixture_files()[0].stem]
    part = load_suite(folder, ids=wanted)
    assert [i.id for i in part.items] == [fixture_files()[0].stem, fixture_files()[2].stem]
    # an id that names no file is looked for in every file: the broken ones are reported
    with pytest.raises(ItemError) as exc:
        load_suite(folder, ids=["no-such-item"])
    assert str(folder / "zz-broken.yaml") in {p.file for p in exc.value.problems}


def test_an_item_whose_file_has_another_name_is_still_found(tmp_path: Path) -> None:
    folder = tmp_path / "renamed"
    folder.mkdir()
    for n, path in enumerate(fixture_files()):
        shutil.copy(path, folder / f"item-{n}.yaml")
    wanted = fixture_files()[3].stem
    assert [i.id for i in load_suite(folder, ids=[wanted]).items] == [wanted]
    with pytest.raises(ItemError, match=r"no such item\(s\): \['nope'\]"):
        load_suite(folder, ids=["nope"])


@pytest.mark.parametrize(
    ("ids", "limit"),
    [(None, 1), (None, 3), (None, 100), (["planning-01", "form-completion-01"], None),
     (["customer-service-01", "interviewing-01", "planning-01"], 2)],
)  # fmt: skip
def test_the_part_is_what_a_full_load_selects(ids: list[str] | None, limit: int | None) -> None:
    path = resolve_suite("workflows-mini")
    full = load_suite(path).select(ids, limit)
    part = load_suite(path, ids, limit)
    assert [i.id for i in part.items] == [i.id for i in full.items]
    assert [item_checksum(i) for i in part.items] == [item_checksum(i) for i in full.items]
    assert part.sources == {i.id: full.sources[i.id] for i in full.items}
    assert (part.name, part.version, part.path) == (full.name, full.version, full.path)


def test_a_changed_item_fails_its_checksum_even_when_loaded_alone(tmp_path: Path) -> None:
    folder = tmp_path / "edited"
    shutil.copytree(FIXTURES, folder, ignore=shutil.ignore_patterns("apex-voice", "tau2"))
    first = sorted(p for p in folder.glob("*.yaml") if p.name != "suite.yaml")[0]
    item = load_suite(folder, limit=1).items[0]
    manifest = yaml.safe_load((folder / "suite.yaml").read_text())
    manifest["checksums"] = {item.id: "0" * 64, "some-other-item": "1" * 64}
    (folder / "suite.yaml").write_text(yaml.safe_dump(manifest))
    with pytest.raises(ItemError) as exc:
        load_suite(folder, limit=1)
    [problem] = exc.value.problems  # the unread items' checksums are not checked
    assert problem.file == str(first) and "differs from the checksum" in problem.message
    with pytest.raises(ItemError, match="items missing"):
        load_suite(folder)


def test_a_single_item_file_and_an_action_suite_take_the_same_selection() -> None:
    single = fixture_files()[0]
    assert len(load_suite(single, limit=1).items) == 1
    with pytest.raises(ItemError, match="no such item"):
        load_suite(single, ids=["nope"])
    actions = resolve_suite("actions-v1")
    first_two = load_action_suite(actions, limit=2)
    assert len(first_two.items) == 2 and first_two.name == "actions-v1"
    wanted = first_two.items[1].id
    assert [i.id for i in load_action_suite(actions, ids=[wanted]).items] == [wanted]
