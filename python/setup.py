"""Builds hittest._core from HitTestKit's C core (CSources/CHitTest), compiled here from source.

The C sources are found through this file's real location: in the repository they are
``../CSources/CHitTest`` (the index and kernels; the constraint solver, CSources/CLayoutSolver, is
not part of the extension) and ``../CSources/shared`` (what the C targets share); they are copied
into ``_csrc/CHitTest`` and ``_csrc/shared`` next to this file at build time (so the extension's
sources are inside the project, as setuptools wants, and an sdist carries them). An sdist or a
copy of this directory without the repository next to it uses ``_csrc/`` as it is.
"""
import os
import shutil
import sys

from setuptools import Extension, setup

HERE = os.path.dirname(os.path.realpath(__file__))
REPO_CSOURCES = os.path.normpath(os.path.join(HERE, "..", "CSources"))
VENDORED = os.path.join(HERE, "_csrc")
# The folders of CSources the extension compiles or includes (the C checks in tests/ are not).
PARTS = ("CHitTest", "shared")


def vendor_c_sources() -> None:
    """Copies the repository's C core into _csrc/ (fresh each build); keeps _csrc/ otherwise."""
    if os.path.isfile(os.path.join(REPO_CSOURCES, "CHitTest", "include", "hittest.h")):
        if os.path.isdir(VENDORED):
            shutil.rmtree(VENDORED)
        for part in PARTS:
            shutil.copytree(os.path.join(REPO_CSOURCES, part), os.path.join(VENDORED, part),
                            ignore=shutil.ignore_patterns("*.modulemap", "tests"))
    if not os.path.isfile(os.path.join(VENDORED, "CHitTest", "include", "hittest.h")):
        sys.exit(
            "hittest: cannot find HitTestKit's C core: expected %s (the repository's "
            "CSources/CHitTest next to python/) or a vendored copy in %s"
            % (os.path.join(REPO_CSOURCES, "CHitTest"), os.path.join(VENDORED, "CHitTest")))


vendor_c_sources()
os.chdir(HERE)
c_files = sorted(f for f in os.listdir("_csrc/CHitTest") if f.endswith(".c"))
extra = ["-std=c11", "-O2", "-ffp-contract=off", "-fvisibility=hidden"]
if sys.platform == "win32":
    extra = []

setup(
    ext_modules=[
        Extension(
            "hittest._core",
            sources=["src/hittest/_core.c"] + ["_csrc/CHitTest/" + f for f in c_files],
            include_dirs=["_csrc/CHitTest/include", "_csrc/CHitTest"],
            define_macros=[("NDEBUG", "1")],
            extra_compile_args=extra,
            libraries=[] if sys.platform == "win32" else ["m"],
        )
    ],
)
