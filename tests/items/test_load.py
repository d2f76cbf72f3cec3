"""Loading items: every fixture loads; bad input names file, path and expectation."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from duplexbench.items._errors import ItemError
from duplexbench.items._load import MAX_ITEM_BYTES, item_checksum, load_item, parse_item
from duplexbench.items._suite import load_suite
from support.fixtures import FIXTURES, fixture_data


def problems_of(data: Any) -> list[str]:
    with pytest.raises(ItemError) as info:
        parse_item(data, "item.yaml")
    return [str(p) for p in info.value.problems]


def test_every_fixture_loads() -> None:
    suite = load_suite(FIXTURES)
    assert suite.name == "fixtures"
    assert len(suite.items) >= 5
    assert len({i.id for i in suite.items}) == len(suite.items)


def test_unknown_grader_names_path_and_choices() -> None:
    data = fixture_data("benefits-enrollment")
    data["artifacts"][0]["fields"][3]["grader"] = "fuzzy"
    problems = problems_of(data)
    assert len(problems) == 1
    assert problems[0].startswith("item.yaml: artifacts[0].fields[3].grader: ")
    assert "'exact'" in problems[0] and "'fuzzy'" in problems[0]


def test_unknown_key_and_missing_key_are_both_reported() -> None:
    data = fixture_data("form-expense-correction")
    data["artifacts"][0]["fields"][1]["colour"] = "red"
    del data["title"]
    problems = problems_of(data)
    assert any("artifacts[0].fields[1].colour: unknown key" in p for p in problems)
    assert any(p.endswith("title: Field required") for p in problems)


def test_union_tag_is_not_in_the_path() -> None:
    data = fixture_data("order-revocation")
    data["tools"][2]["requires_approval"] = "maybe"
    problems = problems_of(data)
    assert any(p.startswith("item.yaml: tools[2].requires_approval:") for p in problems)


def test_bad_grader_options() -> None:
    data = fixture_data("form-expense-correction")
    data["artifacts"][0]["fields"][3]["grader_options"] = {"tolerance": -1}
    problems = problems_of(data)
    assert any("artifacts[0].fields[3]" in p and "tolerance" in p for p in problems)


@pytest.mark.parametrize(
    ("patch", "where", "text"),
    [
        (lambda d: d["tools"][0].update(artifact="nope"), "tools[0].artifact", "unknown artifact"),
        (
            lambda d: d["user"]["facts"][0].update(field="expense.nope"),
            "user.facts[0].field",
            "unknown artifact field",
        ),
        (
            lambda d: d["user"]["realizations"]["open"].append("Hi {cost_center}"),
            "user.realizations.open[2]",
            "placeholder {cost_center}",
        ),
        (
            lambda d: d["user"]["realizations"].update(wave=["a", "b"]),
            "user.realizations.wave",
            "not a plan id",
        ),
        (
            lambda d: d["user"]["realizations"].update(ack=["only one"]),
            "user.realizations.ack",
            "needs 2-5 variants",
        ),
        (
            lambda d: d["reference"]["turns"][0]["tool_calls"][0].update(name="nope"),
            "reference.turns[0].tool_calls[0].name",
            "unknown tool",
        ),
        (
            lambda d: d["reference"]["turns"][0]["tool_calls"][0]["arguments"]["fields"].update(
                colour="red"
            ),
            "reference.turns[0].tool_calls[0].arguments",
            "colour",
        ),
        (
            lambda d: d["gold"]["critical"][0].update(action="launch"),
            "gold.critical[0]",
            "unknown action",
        ),
        (
            lambda d: d["user"]["events"][0].update(revokes="nope"),
            "user.events[0].revokes",
            "unknown approval",
        ),
        (
            lambda d: d["user"]["facts"][4].update(reveal="when_asked"),
            "user.facts[4].reveal",
            "must be on_event",
        ),
    ],
)
def test_cross_reference_problems(patch: Any, where: str, text: str) -> None:
    data = fixture_data("form-expense-correction")
    patch(data)
    problems = problems_of(data)
    assert any(f"item.yaml: {where}: " in p and text in p for p in problems), problems


def test_enum_gold_outside_values() -> None:
    data = fixture_data("benefits-enrollment")
    data["artifacts"][0]["fields"][10]["gold"] = "Vision Gold"
    assert any("fields[10].gold" in p for p in problems_of(data))


def test_yaml_aliases_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "bomb.yaml"
    path.write_text("a: &x [1, 2]\nb: [*x, *x]\n")
    with pytest.raises(ItemError) as info:
        load_item(path)
    assert "aliases" in str(info.value) and "line 2" in str(info.value)


def test_duplicate_keys_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "dup.yaml"
    path.write_text("id: a\nid: b\n")
    with pytest.raises(ItemError, match="duplicate key 'id'"):
        load_item(path)


def test_yaml_python_tags_never_execute(tmp_path: Path) -> None:
    path = tmp_path / "evil.yaml"
    path.write_text("id: !!python/object/apply:os.system ['echo pwned']\n")
    with pytest.raises(ItemError, match="invalid YAML"):
        load_item(path)


def test_oversized_file_is_refused_before_parsing(tmp_path: Path) -> None:
    path = tmp_path / "big.json"
    path.write_text(" " * (MAX_ITEM_BYTES + 1))
    with pytest.raises(ItemError, match="limit"):
        load_item(path)


def test_json_items_load_and_checksum_is_stable(tmp_path: Path) -> None:
    data = fixture_data("airline-rebooking")
    path = tmp_path / "item.json"
    path.write_text(json.dumps(data))
    item = load_item(path)
    assert item_checksum(item) == item_checksum(load_item(FIXTURES / "airline-rebooking.yaml"))


def test_bad_json_names_line(tmp_path: Path) -> None:
    path = tmp_path / "item.json"
    path.write_text('{"id": "x",\n "title": }')
    with pytest.raises(ItemError, match="line 2"):
        load_item(path)


def test_not_a_mapping() -> None:
    assert problems_of([1, 2]) == ["item.yaml: expected a mapping, got list"]


def test_suite_reports_every_problem_of_every_file(tmp_path: Path) -> None:
    for name in ("a", "b"):
        data = fixture_data("form-expense-correction")
        data["id"] = f"item-{name}"
        data["taxonomy"]["risk"] = "extreme"
        (tmp_path / f"{name}.yaml").write_text(yaml.safe_dump(data))
    with pytest.raises(ItemError) as info:
        load_suite(tmp_path)
    files = {Path(p.file).name for p in info.value.problems}
    assert files == {"a.yaml", "b.yaml"}
    assert all(p.path == "taxonomy.risk" for p in info.value.problems)


def test_duplicate_item_ids_in_a_suite(tmp_path: Path) -> None:
    text = (FIXTURES / "airline-rebooking.yaml").read_text()
    (tmp_path / "a.yaml").write_text(text)
    (tmp_path / "b.yaml").write_text(text)
    with pytest.raises(ItemError, match="duplicate item id"):
        load_suite(tmp_path)


def test_empty_folder_and_missing_path(tmp_path: Path) -> None:
    with pytest.raises(ItemError, match="no item files"):
        load_suite(tmp_path)
    with pytest.raises(ItemError, match="no such file"):
        load_suite(tmp_path / "missing")


def test_select_items_and_limit() -> None:
    suite = load_suite(FIXTURES)
    picked = suite.select(["order-revocation", "airline-rebooking"])
    assert [i.id for i in picked.items] == sorted(i.id for i in picked.items) or len(
        picked.items
    ) == 2
    assert len(suite.select(limit=2).items) == 2
    with pytest.raises(ItemError, match="no such item"):
        suite.select(["nope"])
