"""pyproject.toml's metadata agrees with the CMake project and the built module; the install
rules of python/CMakeLists.txt install an importable package (docs/python.md, "Building and
importing"). The wheel itself is built and checked by scripts/python_wheel.sh (not in CI)."""
import os
import re
import subprocess
import sys
import tomllib

import pytest

import libfield
from conftest import SOURCE


def test_pyproject_names_the_cmake_projects_version_and_build():
    with open(os.path.join(SOURCE, "pyproject.toml"), "rb") as f:
        pyproject = tomllib.load(f)
    with open(os.path.join(SOURCE, "CMakeLists.txt")) as f:
        cmake_version = re.search(r"project\(libfield VERSION (\S+)", f.read()).group(1)
    project = pyproject["project"]
    assert project["name"] == "libfield"
    assert project["version"] == cmake_version == libfield.__version__
    assert "numpy" in project["dependencies"]
    # Debian 12's setuptools, which setup.py drives to build the CMake target into the wheel.
    assert pyproject["build-system"]["build-backend"] == "setuptools.build_meta"
    assert pyproject["tool"]["setuptools"]["packages"] == []  # CMake's install rules put them
    with open(os.path.join(SOURCE, "setup.py")) as f:
        setup = f.read()
    for needed in ['"--target", "_libfield"', "-DFIELD_PYTHON=ON", "-DFIELD_PYTHON_INSTALL_DIR=",
                   '"--component", "python"']:
        assert needed in setup, needed


def test_the_install_rules_install_an_importable_package(tmp_path):
    """`cmake --install BUILD --component python` (what setup.py runs) with DESTDIR: the
    package's files and the extension, nothing else, and the installed package imports."""
    build = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(libfield.__file__))))
    if not os.path.isfile(os.path.join(build, "CMakeCache.txt")):
        pytest.skip("libfield is not imported from a CMake build tree")
    subprocess.run(["cmake", "--install", build, "--component", "python"], check=True,
                   capture_output=True, env=dict(os.environ, DESTDIR=str(tmp_path)))
    installed = sorted(str(p.relative_to(tmp_path)) for p in tmp_path.rglob("*") if p.is_file())
    package = os.path.dirname(installed[0])
    names = sorted(os.path.basename(p) for p in installed)
    python_files = sorted(f for f in os.listdir(os.path.join(SOURCE, "python", "libfield"))
                          if f.endswith(".py"))
    extension = os.path.basename(libfield._libfield.__file__)
    assert os.path.basename(package) == "libfield"
    assert names == sorted(python_files + [extension])
    assert all(os.path.dirname(p) == package for p in installed)
    env = dict(os.environ, PYTHONPATH=str(tmp_path / os.path.dirname(package)))
    out = subprocess.run([sys.executable, "-c", "import libfield; print(libfield.__file__, "
                          "libfield.__version__, libfield.lie.SE3Cayley)"],
                         cwd=tmp_path, env=env, check=True, capture_output=True, text=True)
    assert out.stdout.startswith(str(tmp_path / package)), out.stdout
    assert libfield.__version__ in out.stdout
