"""The bundled scenes, one module each, found by ``demos.app.registry`` without a list.

A helper that only one scene uses lives beside it (``ragdoll``, ``sat_explorer_math``,
``sat_walkthrough``); it registers nothing, so it shows in no menu. Importing this package
imports no scene: ``registry.scenes()`` does, so that a bench or a test can import one
helper without loading every scene.
"""
