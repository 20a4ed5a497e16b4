"""The names a ``@micropython.viper`` kernel module (klotski_viper,
trapcat_viper) needs on CPython, where its source runs as plain Python: the
decorators and the pointer casts are identity functions.  The device never
imports this (there ``micropython`` and the casts are built in).

Not ``try: import micropython`` in the kernels: Blinka installs a CPython
``micropython`` module whose ``viper`` raises."""


def const(value):
    return value


def _same(value):
    return value


class micropython:  # noqa: N801  (the name the decorators are spelled with)
    viper = staticmethod(_same)
    native = staticmethod(_same)


ptr8 = ptr16 = ptr32 = _same
