"""The wheel's build step: the project's own CMake build of the Python module (docs/python.md,
"Building and importing"). The metadata is in pyproject.toml; setuptools (Debian's
python3-setuptools, the back end `setuptools.build_meta`) calls this for `pip wheel .` and
`python3 -m build --wheel`.

setuptools' build_ext builds the one extension, libfield._libfield, by configuring CMake in its
build_temp folder (Release, FIELD_PYTHON=ON, no tests or benchmarks, Ninja when found), building
the target `_libfield`, and running the install rules of python/CMakeLists.txt (component
`python`) into build_lib, where the wheel is packed from: the package's Python files and the
extension, as `cmake --install` puts them into site-packages.

Environment: CMAKE_ARGS (extra configure arguments, e.g. -DCMAKE_CXX_COMPILER_LAUNCHER=ccache),
CMAKE_BUILD_PARALLEL_LEVEL (CMake's own: the number of compile jobs; or `build_ext -j N`),
CMAKE_GENERATOR (CMake's own: overrides Ninja).
"""
import os
import shlex
import shutil
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext


class CMakeBuild(build_ext):
    def run(self):
        if self.inplace or getattr(self, "editable_mode", False):  # setuptools >= 64
            sys.exit("libfield: no in-place or editable build (pip install -e); import it from "
                     "the CMake build tree instead: PYTHONPATH=build/release/python "
                     "(docs/python.md)")
        super().run()

    def build_extension(self, ext):
        source = os.path.dirname(os.path.abspath(__file__))
        build = os.path.abspath(self.build_temp)
        # build_lib/libfield/_libfield<EXT_SUFFIX>: the package lies in build_lib.
        extension = os.path.abspath(self.get_ext_fullpath(ext.name))
        package_root = os.path.dirname(os.path.dirname(extension))
        configure = ["cmake", "-S", source, "-B", build, "-DCMAKE_BUILD_TYPE=Release",
                     "-DFIELD_PYTHON=ON", "-DFIELD_BUILD_TESTS=OFF", "-DFIELD_BUILD_BENCH=OFF",
                     f"-DPython_EXECUTABLE={sys.executable}",  # the interpreter of the wheel
                     f"-DFIELD_PYTHON_INSTALL_DIR={package_root}"]
        if "CMAKE_GENERATOR" not in os.environ and shutil.which("ninja") \
                and not os.path.exists(os.path.join(build, "CMakeCache.txt")):
            configure += ["-G", "Ninja"]
        configure += shlex.split(os.environ.get("CMAKE_ARGS", ""))
        compile_ = ["cmake", "--build", build, "--target", "_libfield"]
        if self.parallel:
            compile_ += ["--parallel", str(self.parallel)]
        for command in (configure, compile_,
                        ["cmake", "--install", build, "--component", "python"]):
            print(shlex.join(command), flush=True)
            subprocess.run(command, check=True)
        if not os.path.isfile(extension):
            sys.exit(f"libfield: CMake's install rules did not put the extension at {extension}")


setup(ext_modules=[Extension("libfield._libfield", sources=[])],  # built by CMake, above
      cmdclass={"build_ext": CMakeBuild},
      options={"egg_info": {"egg_base": "build"}})  # libfield.egg-info not in the source tree
