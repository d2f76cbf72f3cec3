"""What a caller's words state (users/_spoken.py): numbers read from the shared number words."""

from __future__ import annotations

from duplexbench.users._spoken import hear


def test_single_digits_oh_included_are_one_number() -> None:
    assert hear("one zero four two").numbers == {1042.0}
    assert hear("two oh one").numbers == {201.0}
    assert hear("E one zero four two").digits == ("e", "1", "0", "4", "2")


def test_a_spelled_pair_also_reads_as_hundreds() -> None:
    assert hear("twelve fifty").numbers == {12.0, 50.0, 1250.0}


def test_scales_up_to_billions_are_read_and_trillion_ends_a_number() -> None:
    assert hear("two thousand").numbers == {2000.0}
    assert hear("two billion").numbers == {2e9}
    assert hear("two trillion").numbers == {2.0}
