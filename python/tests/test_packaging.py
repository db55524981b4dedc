"""pyproject.toml's metadata agrees with the CMake project and the built module."""
import os
import re
import tomllib

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
    assert pyproject["build-system"]["build-backend"] == "scikit_build_core.build"
    skbuild = pyproject["tool"]["scikit-build"]
    assert skbuild["build"]["targets"] == ["_libfield"]
    assert skbuild["cmake"]["define"]["FIELD_PYTHON"] == "ON"
