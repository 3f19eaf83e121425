"""Drawing a scene: numpy tessellation into one triangle buffer per layer, plus text.

``tessellate``, ``camera`` and ``palette`` are pure numpy; ``gpu`` is the one module that
talks to OpenGL, ``labels`` the one that makes pyglet text.
"""
