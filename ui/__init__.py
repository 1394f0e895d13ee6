"""The Gradio UI: customer chat, agent desk and admin latency panel over one `ChatService`."""
from ui.app import create_ui, mount_ui

__all__ = ["create_ui", "mount_ui"]
