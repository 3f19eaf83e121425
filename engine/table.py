"""Table: named arrays sharing one row count, grown by doubling.

The body store, the part table and the joint store are tables: rows [0, count) are live,
in the order they were added; deleting rows shifts the later ones down, so every field's
live rows are one dense view that kernels take as they are.
"""

from __future__ import annotations

import numpy as np


class Table:
    """Named arrays sharing one row count, grown by doubling.

    ``fields``: name -> (trailing shape, dtype). ``view(name)`` is rows [0, count);
    ``cells()`` reads and writes single elements at Python's speed. ``version`` counts the
    changes of rows or arrays (not of values in place): what is derived from the rows'
    layout (views, the joints' body rows) is kept until it moves on.
    """

    def __init__(self, fields: dict, capacity: int = 16):
        self.count = 0
        self.version = 0
        self._fields = dict(fields)
        self.arrays = {
            name: np.zeros((capacity, *shape), dtype=dtype)
            for name, (shape, dtype) in self._fields.items()
        }
        self._columns = None
        self._cells = None

    @property
    def capacity(self) -> int:
        """Rows the arrays have room for (count of them are live)."""
        return len(next(iter(self.arrays.values())))

    def reserve(self, rows: int) -> None:
        """Make room for ``rows`` more rows, doubling as needed."""
        needed = self.count + rows
        if needed <= self.capacity:
            return
        capacity = max(needed, 2 * self.capacity)
        for name, array in self.arrays.items():
            grown = np.zeros((capacity, *array.shape[1:]), dtype=array.dtype)
            grown[: self.count] = array[: self.count]
            self.arrays[name] = grown
        self._columns = None
        self._cells = None
        self.version += 1

    def append(self, values: dict, rows: int = 1) -> int:
        """Append ``rows`` rows from ``values`` (name -> array of the rows); returns the first."""
        self.reserve(rows)
        first = self.count
        for name, array in self.arrays.items():
            array[first : first + rows] = values.get(name, 0)
        self.count += rows
        self.version += 1
        return first

    def append_one(self, values: dict) -> int:
        """Append one row from ``values`` (name -> the row's value: a scalar, or an array of
        the field's trailing shape; a missing field is 0); returns its row. Element writes,
        cheaper for one row than ``append``'s slices."""
        self.reserve(1)
        row = self.count
        cells, arrays = self.cells(), self.arrays
        for name, (trailing, _) in self._fields.items():
            if trailing:
                arrays[name][row] = values.get(name, 0)
            else:  # one element: a memoryview write, half numpy's cost
                cells[name][row] = values.get(name, 0)
        self.count += 1
        self.version += 1
        return row

    def delete(self, first: int, rows: int = 1) -> None:
        """Remove rows [first, first + rows), shifting later rows down."""
        end = self.count
        if first + rows < end:  # the last rows go without moving anything
            for array in self.arrays.values():
                array[first : end - rows] = array[first + rows : end]
        self.count -= rows
        self.version += 1

    def keep_rows(self, kept: np.ndarray) -> None:
        """Keep the rows where ``kept`` (count,) bool is True, in their order: one pass
        through each field however many rows go."""
        count = self.count
        for array in self.arrays.values():
            remaining = array[:count][kept]
            array[: len(remaining)] = remaining
        self.count = int(kept.sum())
        self.version += 1

    def view(self, name: str) -> np.ndarray:
        """Field ``name``'s live rows [0, count): a view, (count, ...)."""
        return self.arrays[name][: self.count]

    def columns(self) -> dict:
        """Every field's view (rows [0, count)), built once until the table changes."""
        if self._columns is None or self._columns[0] != self.version:
            self._columns = (self.version, {name: self.view(name) for name in self.arrays})
        return self._columns[1]

    def cells(self) -> dict:
        """Every field's whole array as a memoryview (name -> view of (capacity, ...)):
        ``cells()["velocity"][row, 0]`` reads or writes one element for about half what
        numpy's scalar access costs. Built once until an array is replaced."""
        if self._cells is None:
            self._cells = {name: array.data for name, array in self.arrays.items()}
        return self._cells

    def replace(self, name: str, array: np.ndarray) -> None:
        """Swap in a new array (same capacity) for field ``name``."""
        self.arrays[name] = array
        self._columns = None
        self._cells = None
        self.version += 1

    def fill(self, columns: dict, count: int) -> None:
        """Make rows [0, count) the given columns (field name -> (count, ...) array)."""
        self.count = 0
        self.reserve(count)
        for name, value in columns.items():
            self.arrays[name][:count] = value
        self.count = count
        self._columns = None
        self.version += 1
