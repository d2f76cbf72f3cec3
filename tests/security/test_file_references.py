"""File references stay inside their folder: suite manifests (`items`), suite folders,
APEX-Voice packages, `--noise-dir` recordings and built-in suite names.

Each reference kind is tried with an absolute path, a `../../etc/passwd`-style
escape and a symbolic link that leads out; each must end in the loader's error
naming the reference. Items themselves hold no file references (knowledge is
inline text, speech is rendered from text), so a would-be `include`/`audio` key
is an unknown key. `test_regression_*` tests close gaps found in the security
review (issue 9).
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
import yaml

from duplexbench.audio._wav import write_wav
from duplexbench.campaign import _conditions as conditions
from duplexbench.campaign._conditions import check_noise_dir
from duplexbench.files import UnsafeFileError, resolve_inside
from duplexbench.items._action_suite import load_action_suite, suite_family
from duplexbench.items._errors import ItemError
from duplexbench.items._load import load_item
from duplexbench.items._suite import load_suite
from duplexbench.suites._apex_voice.common import ApexImportError, read_package
from duplexbench.suites._package import DATA, resolve_suite
from support.fixtures import FIXTURES

ITEM = FIXTURES / "airline-rebooking.yaml"
ACTION = sorted((DATA / "actions-v1").glob("act-*.yaml"))[0]
APEX = FIXTURES / "apex-voice" / "toy_form_001"
SUITE_LOADERS = [load_suite, load_action_suite]


def suite(folder: Path, items: list[str] | None, source: Path = ITEM) -> Path:
    """A suite folder holding `a.yaml` (a copy of `source`) and a manifest listing `items`."""
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copy(source, folder / "a.yaml")
    manifest: dict[str, object] = {"name": "s"}
    if source == ACTION:
        manifest["family"] = "action"
    if items is not None:
        manifest["items"] = items
    (folder / "suite.yaml").write_text(yaml.safe_dump(manifest))
    return folder


def outside(tmp_path: Path, source: Path = ITEM) -> Path:
    """A valid item file outside the suite folder (the target of escapes)."""
    (tmp_path / "elsewhere").mkdir(exist_ok=True)
    return Path(shutil.copy(source, tmp_path / "elsewhere" / "x.yaml"))


def problems(load: Callable[[Path], object], path: Path) -> str:
    with pytest.raises(ItemError) as info:
        load(path)
    assert info.value.problems
    return str(info.value)


# --- suite manifests: `items` entries ------------------------------------------------------


@pytest.mark.parametrize(
    "ref", ["/etc/passwd", "C:\\Windows\\win.ini", "\\\\server\\share\\x.yaml", "C:x.yaml"]
)
def test_regression_manifest_absolute_item_paths_are_refused(tmp_path: Path, ref: str) -> None:
    folder = suite(tmp_path / "s", ["a.yaml", ref])
    for load in SUITE_LOADERS:
        message = problems(load, folder)
        assert f"suite.yaml: items[1]: item file {ref!r} is an absolute path" in message


def test_regression_manifest_absolute_path_to_a_real_item_is_refused(tmp_path: Path) -> None:
    target = outside(tmp_path)
    folder = suite(tmp_path / "s", [str(target)])
    assert "is an absolute path" in problems(load_suite, folder)


@pytest.mark.parametrize("ref", ["../../etc/passwd", "../elsewhere/x.yaml", "sub/../../x.yaml"])
def test_regression_manifest_dotdot_escapes_are_refused(tmp_path: Path, ref: str) -> None:
    outside(tmp_path)  # ../elsewhere/x.yaml is a valid item: it loaded before the fix
    folder = suite(tmp_path / "s", [ref])
    for load in SUITE_LOADERS:
        message = problems(load, folder)
        assert f"items[0]: item file {ref!r} leads outside" in message
        assert "(through `..`)" in message


def test_regression_action_manifest_escapes_are_refused(tmp_path: Path) -> None:
    outside(tmp_path, ACTION)
    folder = suite(tmp_path / "s", ["a.yaml", "../elsewhere/x.yaml"], ACTION)
    assert "items[1]: item file '../elsewhere/x.yaml' leads outside" in problems(
        load_action_suite, folder
    )


def test_regression_manifest_symlink_escape_is_refused(tmp_path: Path) -> None:
    target = outside(tmp_path)
    folder = suite(tmp_path / "s", ["link.yaml"])
    (folder / "link.yaml").symlink_to(target)
    message = problems(load_suite, folder)
    assert "items[0]: item file 'link.yaml' leads outside" in message
    assert "(through a symbolic link)" in message


def test_regression_symlinked_subfolder_escape_is_refused(tmp_path: Path) -> None:
    outside(tmp_path)
    folder = suite(tmp_path / "s", ["sub/x.yaml"])
    (folder / "sub").symlink_to(tmp_path / "elsewhere", target_is_directory=True)
    assert "'sub/x.yaml' leads outside" in problems(load_suite, folder)


def test_regression_symlinked_manifest_escape_is_refused(tmp_path: Path) -> None:
    (tmp_path / "evil.yaml").write_text("name: s\nitems: [a.yaml]\n")
    folder = suite(tmp_path / "s", None)
    (folder / "suite.yaml").unlink()
    (folder / "suite.yaml").symlink_to(tmp_path / "evil.yaml")
    assert "the suite manifest 'suite.yaml' leads outside" in problems(load_suite, folder)


def test_references_that_stay_inside_still_load(tmp_path: Path) -> None:
    folder = suite(tmp_path / "s", ["sub/../a.yaml"])
    (folder / "sub").mkdir()
    assert [i.id for i in load_suite(folder).items] == ["airline-rebooking"]
    (folder / "sub" / "b.yaml").symlink_to(folder / "a.yaml")  # a link inside the suite
    (folder / "suite.yaml").write_text("name: s\nitems: [sub/b.yaml]\n")
    assert [i.id for i in load_suite(folder).items] == ["airline-rebooking"]


def test_a_suite_may_list_item_files_of_a_sibling_suite(tmp_path: Path) -> None:
    mini = load_suite(resolve_suite("workflows-mini"))  # lists ../workflows-v1/*.yaml
    assert len(mini.items) == 12
    other = suite(tmp_path / "other", None)  # a suite folder next to `s`
    (other / "sub").mkdir()
    shutil.copy(ITEM, other / "sub" / "x.yaml")
    folder = suite(tmp_path / "s", ["../other/a.yaml"])
    assert [i.id for i in load_suite(folder).items] == ["airline-rebooking"]
    for ref in ("../other/sub/x.yaml", "../other/suite.yaml"):  # not an item file of `other`
        (folder / "suite.yaml").write_text(f"name: s\nitems: [{ref}]\n")
        assert f"item file {ref!r} leads outside" in problems(load_suite, folder)


def test_regression_a_copy_of_workflows_mini_without_its_sibling_is_refused(
    tmp_path: Path,
) -> None:
    copy = tmp_path / "workflows-mini"
    copy.mkdir()
    shutil.copy(DATA / "workflows-mini" / "suite.yaml", copy / "suite.yaml")
    (tmp_path / "workflows-v2").mkdir()  # a folder of that name, but not a suite
    shutil.copy(DATA / "workflows-v2" / "form-completion-01.yaml", tmp_path / "workflows-v2")
    assert "'../workflows-v2/form-completion-01.yaml' leads outside" in problems(load_suite, copy)


def test_regression_manifest_item_count_is_bounded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("duplexbench.items._suite.MAX_SUITE_FILES", 2)
    folder = suite(tmp_path / "s", ["a.yaml"] * 3)
    assert "3 item files; the limit is 2 per suite" in problems(load_suite, folder)


# --- suite folders without a manifest list --------------------------------------------------


def test_regression_symlinked_item_file_in_a_suite_folder_is_refused(tmp_path: Path) -> None:
    target = outside(tmp_path)
    folder = suite(tmp_path / "s", None)
    (folder / "b.yaml").symlink_to(target)
    for load in SUITE_LOADERS:
        message = problems(load, folder)
        assert "b.yaml: item file 'b.yaml' leads outside" in message


def test_regression_symlink_to_passwd_in_a_suite_folder_is_refused(tmp_path: Path) -> None:
    folder = suite(tmp_path / "s", None)
    (folder / "passwd.yaml").symlink_to("/etc/passwd")
    assert "'passwd.yaml' leads outside" in problems(load_suite, folder)
    (folder / "a.yaml").unlink()
    (folder / "suite.yaml").unlink()
    assert "'passwd.yaml' leads outside" in problems(suite_family, folder)  # reads the first file


# --- items hold no file references ----------------------------------------------------------


@pytest.mark.parametrize(
    ("key", "value"),
    [("include", "../../etc/passwd"), ("audio", "/etc/passwd"), ("documents", ["../x.txt"])],
)
def test_items_have_no_file_reference_keys(tmp_path: Path, key: str, value: object) -> None:
    data = yaml.safe_load(ITEM.read_text())
    path = tmp_path / "item.yaml"
    path.write_text(yaml.safe_dump({**data, key: value}))
    assert f"{key}: unknown key" in problems(load_item, path)
    data["knowledge"] = [{"id": "k", "title": "t", "text": "x", "file": "/etc/passwd"}]
    path.write_text(yaml.safe_dump(data))
    assert "knowledge[0].file: unknown key" in problems(load_item, path)


# --- built-in suite names -------------------------------------------------------------------


def test_regression_builtin_suite_names_cannot_walk_out_of_the_package(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    evil = suite(tmp_path / "evil", None)
    ref = os.path.relpath(evil, DATA)  # ../../../..../tmp/.../evil, from the packaged suites
    deep = tmp_path.joinpath(*["d"] * (len(DATA.parts) + 1))
    deep.mkdir(parents=True)
    monkeypatch.chdir(deep)
    assert not Path(ref).exists()  # only the packaged-suite lookup could reach it
    with pytest.raises(ItemError, match="no such file, folder or built-in suite"):
        resolve_suite(ref)
    assert resolve_suite("workflows-mini") == DATA / "workflows-mini"


# --- APEX-Voice packages --------------------------------------------------------------------


@pytest.fixture
def package(tmp_path: Path) -> Path:
    return Path(shutil.copytree(APEX, tmp_path / "pkg"))


def test_regression_apex_package_file_symlink_escape_is_refused(
    package: Path, tmp_path: Path
) -> None:
    read_package(package)  # the copy imports
    moved = Path(shutil.move(package / "task.yaml", tmp_path / "task.yaml"))
    (package / "task.yaml").symlink_to(moved)
    with pytest.raises(ApexImportError, match=r"task.yaml: package file 'task.yaml' leads out"):
        read_package(package)


def test_regression_apex_symlinked_package_folder_is_refused(package: Path, tmp_path: Path) -> None:
    moved = Path(shutil.move(package / "user", tmp_path / "user"))
    (package / "user").symlink_to(moved, target_is_directory=True)
    with pytest.raises(ApexImportError, match=r"leads outside .* symbolic link"):
        read_package(package)


# --- noise recordings -----------------------------------------------------------------------


def noise_dir(folder: Path) -> Path:
    tone = (1000 * np.sin(np.arange(1600) / 5)).astype(np.int16)
    write_wav(folder / "babble" / "one.wav", [tone], 16000)
    return folder


def test_noise_dir_lists_its_recordings(tmp_path: Path) -> None:
    folder = noise_dir(tmp_path / "noise")
    assert check_noise_dir(folder) == [folder / "babble" / "one.wav"]


def test_noise_recording_symlink_escapes_are_refused(tmp_path: Path) -> None:
    folder = noise_dir(tmp_path / "noise")
    other = noise_dir(tmp_path / "other")
    (folder / "babble" / "two.wav").symlink_to(other / "babble" / "one.wav")
    with pytest.raises(UnsafeFileError, match=r"noise recording 'babble/two\.wav' leads outside"):
        check_noise_dir(folder)
    (folder / "babble" / "two.wav").unlink()
    (folder / "hum").symlink_to(other / "babble", target_is_directory=True)
    with pytest.raises(ValueError, match=r"'hum/one\.wav' leads outside"):
        check_noise_dir(folder)


def test_noise_dir_size_and_count_limits(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = noise_dir(tmp_path / "noise")
    shutil.copy(folder / "babble" / "one.wav", folder / "babble" / "two.wav")
    size = (folder / "babble" / "one.wav").stat().st_size
    monkeypatch.setattr(conditions, "MAX_NOISE_DIR_BYTES", size + 1)
    with pytest.raises(ValueError, match=f"recordings together is over {2 * size} bytes"):
        check_noise_dir(folder)
    monkeypatch.setattr(conditions, "MAX_NOISE_FILES", 1)
    with pytest.raises(ValueError, match="more than 1 noise recordings"):
        check_noise_dir(folder)
    monkeypatch.setattr(conditions, "MAX_WAV_BYTES", size - 1)
    with pytest.raises(ValueError, match=rf"one.wav: noise recording is {size} bytes; the limit"):
        check_noise_dir(folder)


# --- the helper itself ----------------------------------------------------------------------


def test_resolve_inside_names_the_reference_and_handles_loops(tmp_path: Path) -> None:
    (tmp_path / "loop").symlink_to(tmp_path / "loop")
    with pytest.raises(UnsafeFileError, match=r"cannot read thing 'loop/x'"):
        resolve_inside(tmp_path, "loop/x", "thing")
    with pytest.raises(UnsafeFileError, match=r"cannot read thing 'a\\x00b'"):
        resolve_inside(tmp_path, "a\x00b", "thing")
    assert resolve_inside(tmp_path, "a/../b", "thing") == tmp_path / "a/../b"
