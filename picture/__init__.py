"""Pictures of tables: melds drawn as rows of tiles in their colours, as SVG or PNG, for the
command line's ``--svg``/``--png`` and for any other view (it knows only melds and tiles).
"""

from rummikub.picture.svg import PictureError, TablePicture, table_png, table_svg

__all__ = ["PictureError", "TablePicture", "table_png", "table_svg"]
