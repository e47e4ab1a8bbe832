"""A Python snippet that runs the cantoedge CLI with the build side blocked: device commands must not import
torch, the corpus tools or ToJyutping (the device frontend reads a compiled dictionary)."""

import textwrap

BLOCKER = textwrap.dedent("""
    import importlib.abc, sys
    BLOCKED = ("torch", "pycantonese", "librosa", "soundfile", "pyworld", "praatio", "tqdm", "ToJyutping",
               "cantoedge.datasets", "cantoedge.export", "cantoedge.calibrate")
    class Block(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path=None, target=None):
            if any(name == b or name.startswith(b + ".") for b in BLOCKED):
                raise ImportError(f"device code imported build-side module {name}")
    sys.meta_path.insert(0, Block())
    from cantoedge.scripts.cli import main
    sys.exit(main(sys.argv[1:]))
""")
