from __future__ import annotations

from hipify_py.engine.edits import Edit, apply, plan


def e(start: int, end: int, text: str) -> Edit:
    return Edit(start, end, text.encode(), "t")


def test_apply_in_order() -> None:
    accepted, rejected = plan([e(4, 5, "X"), e(0, 1, "A")])
    assert not rejected
    assert apply(b"abcdef", accepted) == b"AbcdXf"


def test_overlap_is_rejected() -> None:
    accepted, rejected = plan([e(0, 3, "X"), e(2, 4, "Y")])
    assert rejected == [e(2, 4, "Y")]
    assert apply(b"abcdef", accepted) == b"Xdef"


def test_insertions_keep_creation_order_and_precede_a_replacement_at_the_same_point() -> None:
    accepted, _ = plan([e(2, 4, "R"), e(2, 2, "1"), e(2, 2, "2"), e(4, 4, ">")])
    assert apply(b"abcdef", accepted) == b"ab12R>ef"


def test_insertion_inside_a_replacement_is_rejected() -> None:
    accepted, rejected = plan([e(1, 4, "R"), e(2, 2, "i")])
    assert rejected == [e(2, 2, "i")]
    assert apply(b"abcdef", accepted) == b"aRef"


def test_exact_duplicates_are_dropped_silently() -> None:
    accepted, rejected = plan([e(1, 2, "X"), e(1, 2, "X")])
    assert not rejected
    assert apply(b"abc", accepted) == b"aXc"
