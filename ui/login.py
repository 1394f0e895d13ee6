"""API-key login for the protected tabs. The key lives in a `gr.State`, which Gradio keeps on the
server per browser session, and every protected handler checks it again with `require_role`: hiding
components is presentation, the check is the protection (event endpoints can be called directly)."""
from __future__ import annotations

import gradio as gr

from chatbot.auth import has_role


def require_role(service, key: str | None, role: str) -> None:
    """Raise `gr.Error` unless `key` belongs to `role` (admins may do what agents may)."""
    if not is_logged_in(service, key, role):
        raise gr.Error(f"Please log in with an {role} key.", title="Not logged in", print_exception=False)


def is_logged_in(service, key: str | None, role: str) -> bool:
    return has_role(service.role_for_key(key), role)


def build_login(role: str) -> dict:
    """The key box shown until login succeeds. Components: key_state, login_box, key, login, status."""
    key_state = gr.State(None)
    with gr.Column(visible=True, elem_classes=["sd-login"]) as login_box:
        gr.Markdown(f"This part is for {role}s. Log in with an {role} API key.")
        with gr.Row():
            key = gr.Textbox(label=f"{role.capitalize()} API key", type="password", scale=4,
                             elem_classes=["sd-login-key"], autofocus=False)
            login = gr.Button("Log in", variant="primary", scale=1, elem_classes=["sd-login-button"])
        status = gr.Markdown("", elem_classes=["sd-login-status"])
    return {"key_state": key_state, "login_box": login_box, "key": key, "login": login, "status": status}


def bind_login(service, components: dict, role: str):
    """Bind login and logout. `components` holds build_login's components plus the tab's `content`
    column and `logout` button. Returns the (login, logout) events, so a tab can chain `.then()`."""
    key_state, login_box, content = components["key_state"], components["login_box"], components["content"]
    status = components["status"]

    def log_in(key: str) -> dict:
        """Inputs: the typed key. Outputs: the key box cleared; for a right key, the key in session state,
        the login box hidden and the content shown; for a wrong one, a message."""
        if not is_logged_in(service, key, role):
            return {components["key"]: "", status: f"That is not an {role} key."}
        return {key_state: key, components["key"]: "", status: "", login_box: gr.Column(visible=False),
                content: gr.Column(visible=True)}

    def log_out() -> dict:
        """Outputs: the session key forgotten, content hidden, login box shown."""
        return {key_state: None, login_box: gr.Column(visible=True), content: gr.Column(visible=False)}

    outputs = {key_state, components["key"], status, login_box, content}
    login_event = gr.on([components["login"].click, components["key"].submit], log_in, inputs=components["key"],
                        outputs=outputs, api_visibility="private")
    logout_event = components["logout"].click(log_out, outputs={key_state, login_box, content},
                                              api_visibility="private")
    return login_event, logout_event
