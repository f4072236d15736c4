"""The virtual pyramid's compiled firmware is cached where a build belongs, never in the
temp folder (it left ``/tmp/pyramid-mpy-<hash>`` behind on every machine that ran it):
``build/mpy`` in a checkout, ``$XDG_CACHE_HOME/smart-pyramid/mpy`` for an installed
package (``camelhost.paths.build_dir``)."""

import os
import tempfile

import pytest
from camelhost import paths
from camelhost.device import virtual

pytestmark = pytest.mark.process  # mpy-cross compiles the tree


def test_the_compiled_tree_goes_to_the_build_cache_not_the_temp_folder(tmp_path, monkeypatch):
    temp = tmp_path / "tmp"
    temp.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(temp))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setattr(paths, "IN_CHECKOUT", True)  # a checkout: its own build folder
    assert paths.build_dir("mpy") == os.path.join(paths.REPO_ROOT, "build", "mpy")
    monkeypatch.setattr(paths, "IN_CHECKOUT", False)  # installed: the user's cache
    where = tmp_path / "cache" / "smart-pyramid" / "mpy"
    tree = virtual.compiled_tree()
    assert os.path.dirname(tree) == str(where)
    assert os.path.isfile(os.path.join(tree, "firmware", "main.mpy"))
    assert os.listdir(where) == [os.path.basename(tree)]  # no half-built folder beside it
    assert os.listdir(temp) == []
    assert virtual.compiled_tree() == tree  # the same sources: the same tree, not rebuilt
