"""Exceptions: one class per status of libhyst (hyst/common.h), each carrying the C message unchanged.

Every class derives from HystError and from the built-in exception a Python user would catch for that kind of
problem (a parse error is a ValueError, a missing file an OSError, ...). The message names the file, the line and
column or the configuration key as the C library wrote it; ``file``, ``line``, ``column`` and ``key`` hold those
parts when the message starts with them (None otherwise)."""
import re

__all__ = ["HystError", "ArgumentError", "HystIOError", "ParseError", "DataError", "ModelError", "StateError",
           "RangeError", "NumericError", "HystMemoryError", "ClosedError"]

# "file:line:col: ...", "file:line: ...", "file: key.path[3]: ...", "file: key = value: ...", "file: ..."
_LOC = re.compile(r"^(?P<file>[^:\s][^:]*?):(?P<line>\d+)(?::(?P<column>\d+))?: ")
_KEY = re.compile(r'^(?P<file>[^:\s][^:]*?): "?(?P<key>[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*|\[\d+\])*)"?'
                  r"(?: = [^:]*)?: ")
_FILE = re.compile(r"^(?P<file>[^:\s]*[./][^:\s]*|<[a-z]+>): ")


class HystError(Exception):
    """An error reported by libhyst or libmech: ``code`` is the C status (enum hy_status), ``message`` the text."""
    code = None
    status = "error"

    def __init__(self, message, code=None):
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code
        self.file = self.line = self.column = self.key = None
        m = _LOC.match(message)
        if m:
            self.file, self.line = m["file"], int(m["line"])
            self.column = int(m["column"]) if m["column"] else None
        else:
            m = _KEY.match(message)
            if m:
                self.file, self.key = m["file"], m["key"]
            else:
                m = _FILE.match(message)
                if m:
                    self.file = m["file"]


class ArgumentError(HystError, ValueError):
    code, status = 1, "bad argument"


class HystIOError(HystError, OSError):
    code, status = 2, "i/o error"

    def __str__(self):
        return self.message


class ParseError(HystError, ValueError):
    code, status = 3, "parse error"


class DataError(HystError, ValueError):
    code, status = 4, "data error"


class ModelError(HystError, ValueError):
    code, status = 5, "model error"


class StateError(HystError, RuntimeError):
    code, status = 6, "state error"


class RangeError(HystError, ValueError):
    code, status = 7, "range error"


class NumericError(HystError, ArithmeticError):
    code, status = 8, "numerical error"


class HystMemoryError(HystError, MemoryError):
    code, status = 9, "out of memory"


class ClosedError(HystError, RuntimeError):
    """An object used after close(), or closed while another object still uses it (Python-side, no C status)."""


_BY_CODE = {c.code: c for c in (ArgumentError, HystIOError, ParseError, DataError, ModelError, StateError,
                                RangeError, NumericError, HystMemoryError)}


def from_code(code, message):
    """(C status, message) => the matching exception instance."""
    return _BY_CODE.get(code, HystError)(message, code)


def check(rc, err):
    """Raises the exception for a failed call (rc != 0) with the hy_err it filled in."""
    if rc != 0:
        raise from_code(rc, err.msg.decode("utf-8", "replace"))
