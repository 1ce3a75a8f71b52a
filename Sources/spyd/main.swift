print("spyd")
