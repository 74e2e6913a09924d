"""Exceptions: one class per status of libhyst (hyst/common.h), each carrying the C message unchanged.

Every class derives from HystError and from the built-in exception a Python user would catch for that kind of
problem (a parse error is a ValueError, a missing file an OSError, ...). The message names the file, the line and
column or the configuration key as the C library wrote it; ``file``, ``line``, ``column`` and ``key`` hold those
parts when the message starts with them (None otherwise)."""
import errno as _errno
import os
import re

__all__ = ["HystError", "ArgumentError", "HystIOError", "HystFileNotFoundError", "HystPermissionError",
           "HystIsADirectoryError", "ParseError", "DataError", "ModelError", "StateError", "RangeError",
           "NumericError", "HystMemoryError", "ClosedError"]

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
    """A bad argument (C: HY_EARG): also a ValueError."""

    code, status = 1, "bad argument"


class HystIOError(HystError, OSError):
    """A file that cannot be read or written (C: HY_EIO): also an OSError; its subclasses below are also the
    built-in FileNotFoundError, PermissionError and IsADirectoryError."""

    code, status = 2, "i/o error"

    def __str__(self):
        return self.message


class HystFileNotFoundError(HystIOError, FileNotFoundError):
    """A file that does not exist (C: HY_EIO with ENOENT): also the built-in FileNotFoundError, errno ENOENT."""


class HystPermissionError(HystIOError, PermissionError):
    """A file that cannot be opened for lack of permission (EACCES): also the built-in PermissionError."""


class HystIsADirectoryError(HystIOError, IsADirectoryError):
    """A folder given where a file is expected (EISDIR): also the built-in IsADirectoryError."""


# the C messages end with strerror(errno): that errno gives the OSError subclass, as open() would raise it
_OS_ERRORS = [(e, os.strerror(e), c) for e, c in ((_errno.ENOENT, HystFileNotFoundError),
                                                  (_errno.EACCES, HystPermissionError),
                                                  (_errno.EISDIR, HystIsADirectoryError))]


class ParseError(HystError, ValueError):
    """Malformed input: a CSV cell, JSON text, a key (C: HY_EPARSE): also a ValueError; ``line``, ``column`` or ``key`` say where."""

    code, status = 3, "parse error"


class DataError(HystError, ValueError):
    """Data that cannot be used: too few samples, no loops (C: HY_EDATA): also a ValueError."""

    code, status = 4, "data error"


class ModelError(HystError, ValueError):
    """An invalid model or configuration value (C: HY_EMODEL): also a ValueError; ``key`` names it."""

    code, status = 5, "model error"


class StateError(HystError, RuntimeError):
    """A call that the object's state does not allow: a failed step, a commit without a trial (C: HY_ESTATE): also a RuntimeError."""

    code, status = 6, "state error"


class RangeError(HystError, ValueError):
    """A value outside the model's valid range (C: HY_ERANGE): also a ValueError."""

    code, status = 7, "range error"


class NumericError(HystError, ArithmeticError):
    """A numerical failure: no convergence, a non-finite state (C: HY_ENUMERIC): also an ArithmeticError."""

    code, status = 8, "numerical error"


class HystMemoryError(HystError, MemoryError):
    """Out of memory in C (C: HY_ENOMEM): also a MemoryError."""

    code, status = 9, "out of memory"


class ClosedError(HystError, RuntimeError):
    """An object used after close(), or closed while another object still uses it (Python-side, no C status)."""


_BY_CODE = {c.code: c for c in (ArgumentError, HystIOError, ParseError, DataError, ModelError, StateError,
                                RangeError, NumericError, HystMemoryError)}


def from_code(code: int, message: str) -> HystError:
    """(C status, message) => the matching exception instance; an i/o error whose message carries the strerror of
    ENOENT, EACCES or EISDIR is also the built-in FileNotFoundError, PermissionError or IsADirectoryError, with
    ``errno``, ``strerror`` and ``filename`` set."""
    if code == HystIOError.code:
        for no, text, cls in _OS_ERRORS:
            if text in message:
                e = cls(message, code)
                e.errno, e.strerror, e.filename = no, text, e.file
                return e
    return _BY_CODE.get(code, HystError)(message, code)


def check(rc: int, err) -> None:
    """Raises the exception for a failed call (rc != 0) with the hy_err it filled in."""
    if rc != 0:
        raise from_code(rc, err.msg.decode("utf-8", "replace"))
