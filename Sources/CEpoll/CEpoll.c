// The target exists for its header; SwiftPM needs one source file.
