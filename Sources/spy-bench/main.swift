print("spy-bench")
