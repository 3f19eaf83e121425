"""The one piece of the renderer that talks to OpenGL: a buffer of coloured triangles.

Everything the demos draw (filled shapes, thick lines, arrows, HUD panels) is tessellated
into triangles by numpy, so one vertex format, one shader and one draw call per layer are
enough. Vertices are uploaded straight from a numpy array each frame: going through
pyglet's per-attribute vertex lists would copy them element by element in Python.
"""

from __future__ import annotations

import ctypes

import numpy as np
from pyglet import gl
from pyglet.graphics.shader import Shader, ShaderProgram

# One vertex: position (x, y) as float32 and colour as four normalised bytes. 12 bytes, so
# 2,000 bodies of a dozen triangles each are well under a megabyte per frame.
VERTEX = np.dtype([("xy", np.float32, 2), ("rgba", np.uint8, 4)])

_VERTEX_SOURCE = """#version 330 core
in vec2 xy;
in vec4 rgba;
out vec4 colour;
// world (or screen) coordinates -> clip space: clip = xy * scale + offset
uniform vec2 scale;
uniform vec2 offset;
void main() {
    gl_Position = vec4(xy * scale + offset, 0.0, 1.0);
    colour = rgba;
}
"""

_FRAGMENT_SOURCE = """#version 330 core
in vec4 colour;
out vec4 fragment;
void main() {
    fragment = colour;
}
"""


class TriangleBuffer:
    """A growable GPU buffer of triangles drawn with an affine 2D transform.

    ``upload(vertices)`` takes a structured array of ``VERTEX`` (3 per triangle);
    ``draw(scale, offset)`` maps each vertex to clip space as ``xy * scale + offset``.
    Needs a current OpenGL 3.3 context (a pyglet window).
    """

    def __init__(self) -> None:
        self._program = ShaderProgram(
            Shader(_VERTEX_SOURCE, "vertex"), Shader(_FRAGMENT_SOURCE, "fragment")
        )
        self._vao = gl.GLuint()
        gl.glGenVertexArrays(1, ctypes.byref(self._vao))
        self._vbo = gl.GLuint()
        gl.glGenBuffers(1, ctypes.byref(self._vbo))
        self._count = 0
        gl.glBindVertexArray(self._vao)
        gl.glBindBuffer(gl.GL_ARRAY_BUFFER, self._vbo)
        stride = VERTEX.itemsize
        for name, size, kind, normalise in (
            ("xy", 2, gl.GL_FLOAT, gl.GL_FALSE),
            ("rgba", 4, gl.GL_UNSIGNED_BYTE, gl.GL_TRUE),
        ):
            location = gl.glGetAttribLocation(self._program.id, name.encode())
            gl.glEnableVertexAttribArray(location)
            gl.glVertexAttribPointer(
                location, size, kind, normalise, stride, ctypes.c_void_p(VERTEX.fields[name][1])
            )
        gl.glBindVertexArray(0)

    def upload(self, vertices: np.ndarray) -> None:
        """Replace the buffer's contents with ``vertices`` (a VERTEX array, 3 per triangle)."""
        vertices = np.ascontiguousarray(vertices, dtype=VERTEX)
        self._count = len(vertices)
        gl.glBindBuffer(gl.GL_ARRAY_BUFFER, self._vbo)
        # A fresh glBufferData each frame lets the driver hand us new storage instead of
        # waiting for the previous frame's draw to finish reading the old one.
        gl.glBufferData(
            gl.GL_ARRAY_BUFFER, vertices.nbytes, vertices.ctypes.data, gl.GL_STREAM_DRAW
        )

    def draw(self, scale, offset) -> None:
        """Draw the uploaded triangles with clip = xy * scale + offset (alpha-blended)."""
        if self._count == 0:
            return
        self._program.use()
        self._program["scale"] = (float(scale[0]), float(scale[1]))
        self._program["offset"] = (float(offset[0]), float(offset[1]))
        gl.glEnable(gl.GL_BLEND)
        gl.glBlendFunc(gl.GL_SRC_ALPHA, gl.GL_ONE_MINUS_SRC_ALPHA)
        gl.glBindVertexArray(self._vao)
        gl.glDrawArrays(gl.GL_TRIANGLES, 0, self._count)
        gl.glBindVertexArray(0)
        self._program.stop()


def read_pixels(width: int, height: int) -> np.ndarray:
    """The current framebuffer as an (height, width, 3) uint8 RGB array, top row first."""
    pixels = np.empty((height, width, 4), dtype=np.uint8)
    gl.glPixelStorei(gl.GL_PACK_ALIGNMENT, 1)
    gl.glReadPixels(0, 0, width, height, gl.GL_RGBA, gl.GL_UNSIGNED_BYTE, pixels.ctypes.data)
    # OpenGL's rows start at the bottom; images start at the top.
    return np.ascontiguousarray(pixels[::-1, :, :3])
