"""duplexbench: does the voice agent actually finish the work?"""

__version__ = "0.1.0"
