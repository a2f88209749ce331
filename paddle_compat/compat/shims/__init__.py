"""Small stand-ins for Paddle modules that have no paddle_compat counterpart of their own
(``paddle.base``): the few names real scripts take from them, each pointing at the
paddle_compat implementation; everything else raises ``UnsupportedAPIError``."""
