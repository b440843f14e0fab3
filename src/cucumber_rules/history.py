"""`History`: the actions of a match as an immutable, persistent sequence.

A match's history only ever grows at its end, and every state keeps its own.
`History` shares everything but the newest actions with the history it grew
from, so appending costs the same early and late in a long match, and a new
state never copies the old one's actions. It is a `Sequence`: `len`, indexing,
slicing, iteration, `in`, `index` and `count` see the actions, oldest first;
`+` concatenates histories; `History(actions)` builds one.

Inside, a history is a chain of segments (a deal, a trick's plays, a decision);
reading it as a whole walks the chain once and keeps the tuple it built. Nothing
recurses, so equality, hashing, `repr`, pickling and `attrs.asdict` of a state
are safe on histories of any length.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, SupportsIndex, TypeVar, overload

from .values import builder

__all__ = ["History"]

T = TypeVar("T")

_new = object.__new__
_set = object.__setattr__


class History(Sequence[T]):
    """An immutable sequence of actions that shares its older part with the history it grew from.

    Example:
        >>> import cucumber_rules as cr
        >>> h = History(["a", "b"]).append("c")
        >>> list(h), len(h), h[-1], h.index("b"), h.count("a")
        (['a', 'b', 'c'], 3, 'c', 1, 1)
        >>> h + History(["d"]) == History(["a", "b", "c", "d"])
        True
    """

    __slots__ = ("_items", "_len", "_rest", "_segment")

    _segment: tuple[T, ...]
    _rest: History[T] | None
    _len: int
    _items: tuple[T, ...] | None

    def __new__(cls, items: Iterable[T] = ()) -> History[T]:
        if type(items) is History:
            return items
        segment = tuple(items)
        return _node(segment, None, len(segment), segment)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"History is immutable: cannot set {name!r}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"History is immutable: cannot delete {name!r}")

    # ----------------------------------------------------------------- growing

    def append(self, item: T) -> History[T]:
        """Return a new history with `item` added at the end; this one is unchanged.

        Example:
            >>> one = History(["a"])
            >>> two = one.append("b")
            >>> list(one), list(two)
            (['a'], ['a', 'b'])
        """
        return _node((item,), self if self._len else None, self._len + 1, None)

    def extend(self, items: Iterable[T]) -> History[T]:
        """Return a new history with `items` added at the end (one segment); this one is unchanged.

        Example:
            >>> list(History(["a"]).extend(["b", "c"]))
            ['a', 'b', 'c']
        """
        segment = tuple(items)
        if not segment:
            return self
        return _node(segment, self if self._len else None, self._len + len(segment), None)

    # ----------------------------------------------------------------- reading

    def items(self) -> tuple[T, ...]:
        """The actions as a tuple, oldest first (built once per history, then kept).

        Example:
            >>> History([1, 2]).append(3).items()
            (1, 2, 3)
        """
        found = self._items
        if found is not None:
            return found
        segments: list[tuple[T, ...]] = []
        node: History[T] | None = self
        while node is not None:
            cached = node._items
            if cached is not None:
                segments.append(cached)
                break
            segments.append(node._segment)
            node = node._rest
        out: list[T] = []
        for segment in reversed(segments):
            out.extend(segment)
        found = tuple(out)
        _set(self, "_items", found)
        return found

    def since(self, first: Callable[[T], bool]) -> tuple[T, ...]:
        """The newest actions back to (and including) the last one for which `first` is true, oldest first.

        Walks back only as far as that action; all of them if none matches.

        Example:
            >>> History([1, 5, 2, 3]).append(4).since(lambda x: x >= 5)
            (5, 2, 3, 4)
        """
        out: list[T] = []
        node: History[T] | None = self
        while node is not None:
            segment = node._items if node._items is not None else node._segment
            for item in reversed(segment):
                out.append(item)
                if first(item):
                    out.reverse()
                    return tuple(out)
            if node._items is not None:
                break
            node = node._rest
        out.reverse()
        return tuple(out)

    def _newest(self, first: Callable[[T], bool]) -> tuple[History[T], int] | None:
        """Where the newest action for which `first` is true is: the history whose newest segment
        holds it, and the action's position; None if no action matches.

        Walks back only as far as that action. The history returned is shared by every history grown
        from it, so the pair (its identity and the position) names the actions before that one
        exactly: a key for what is worked out from them once.

        Example:
            >>> h = History([1, 5, 2]).append(3).append(4)
            >>> node, at = h._newest(lambda x: x >= 5)
            >>> at, node.items()[:at], h._newest(lambda x: x > 9)
            (1, (1,), None)
        """
        node: History[T] | None = self
        while node is not None:
            segment = node._segment
            start = node._len - len(segment)
            for i in range(len(segment) - 1, -1, -1):
                if first(segment[i]):
                    return node, start + i
            node = node._rest
        return None

    def added_since(self, older: History[T]) -> tuple[T, ...] | None:
        """What was appended to `older` to make this history, oldest first; None if it did not grow from it.

        "Grew from" means by `append` and `extend` (the very object, not an equal one). Walks back
        only over the newer segments, so it costs the same however long the history is.

        Example:
            >>> one = History(["a"]).append("b")
            >>> two = one.append("c").extend(["d", "e"])
            >>> two.added_since(one), one.added_since(one), one.added_since(two)
            (('c', 'd', 'e'), (), None)
        """
        if older is self:
            return ()
        if self._rest is older:  # grown by one segment (a view's next trick): no walk
            return self._segment
        stop = older._len
        if not stop:
            return None  # every history grew from the empty one: use items() for all of it
        segments: list[tuple[T, ...]] = []
        node: History[T] | None = self
        while node is not None and node._len > stop:
            segments.append(node._segment)
            node = node._rest
        if node is not older:
            return None
        if len(segments) == 1:
            return segments[0]
        out: list[T] = []
        for segment in reversed(segments):
            out.extend(segment)
        return tuple(out)

    @property
    def last(self) -> T | None:
        """The newest action (None when empty).

        Example:
            >>> History([1, 2]).last, History().last
            (2, None)
        """
        return self._segment[-1] if self._len else None

    def __len__(self) -> int:
        return self._len

    def __bool__(self) -> bool:
        return self._len > 0

    @overload
    def __getitem__(self, index: SupportsIndex) -> T: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[T, ...]: ...

    def __getitem__(self, index: SupportsIndex | slice) -> T | tuple[T, ...]:
        if isinstance(index, slice):
            return self.items()[index]
        if index == -1 and self._len:
            return self._segment[-1]
        return self.items()[index]

    def __iter__(self) -> Iterator[T]:
        return iter(self.items())

    def __reversed__(self) -> Iterator[T]:
        return reversed(self.items())

    def __contains__(self, item: object) -> bool:
        return item in self.items()

    def index(self, value: Any, start: int = 0, stop: int = 2**63 - 1) -> int:
        """The position of the first `value` (in `start:stop`); ValueError if absent.

        Example:
            >>> History("abcb").index("b")
            1
        """
        return self.items().index(value, start, stop)

    def count(self, value: Any) -> int:
        """How often `value` occurs.

        Example:
            >>> History("abcb").count("b")
            2
        """
        return self.items().count(value)

    # ----------------------------------------------------------------- value behaviour

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, History):
            return NotImplemented
        if self is other:
            return True
        if self._len != other._len:
            return False
        return self.items() == other.items()

    def __ne__(self, other: object) -> bool:
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

    def __hash__(self) -> int:
        return hash(self.items())

    def __add__(self, other: Iterable[T]) -> History[T]:
        if not isinstance(other, History | tuple | list):
            return NotImplemented
        return self.extend(other)

    def __radd__(self, other: Iterable[T]) -> History[T]:
        if not isinstance(other, tuple | list):
            return NotImplemented
        return History(other).extend(self.items())

    def __repr__(self) -> str:
        return f"History({list(self.items())!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (History, (self.items(),))

    def __copy__(self) -> History[T]:
        return self

    def __deepcopy__(self, memo: Any) -> History[T]:
        return self


#: `_node(segment, rest, length, items)`: a history node from its slots (see `values.builder`).
_node: Callable[[tuple[Any, ...], History[Any] | None, int, Any], History[Any]] = builder(
    History, ("_segment", "_rest", "_len", "_items")
)


EMPTY: History[Any] = History()
"""The empty history, shared."""
