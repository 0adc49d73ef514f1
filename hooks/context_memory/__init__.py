"""context-memory: Claude Code hooks and commands that keep long sessions coherent."""

__version__ = "0.1.0"

# The one flag of the ``if TYPE_CHECKING:`` blocks, which hold the imports only the type
# checker needs (collections.abc, typing, the package's own types): ``typing`` costs an
# import on the hook paths, and mypy takes any name TYPE_CHECKING as true. Every module of
# the package is loaded after this one, so importing the flag costs no module.
TYPE_CHECKING = False
