"""The built-in dialects. Importing this package imports every module and subpackage in it,
and each registers its dialects: a new dialect is a new module here, with no list to keep.
"""

import importlib as _importlib
import pkgutil as _pkgutil

for _module in _pkgutil.iter_modules(__path__):
    _importlib.import_module(f"{__name__}.{_module.name}")
