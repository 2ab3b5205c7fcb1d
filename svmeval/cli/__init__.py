"""The command lines, thin over the library: one option table (:mod:`.options`), one runner
(:mod:`.runner`: errors, Ctrl-C, outputs checked before any work), one module per command
(:mod:`.svmeval`, :mod:`.grid`, :mod:`.compare`)."""
